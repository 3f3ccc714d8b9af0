/** ISO 4217 codes this runtime knows (Node ships full ICU). */
const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && knownCurrencies.has(code);
}

/** Digits after the decimal point of a currency: 2 for EUR, 0 for JPY, 3 for KWD. */
const digitsByCurrency = new Map<string, number>();

export function minorDigits(currencyCode: string): number {
  let digits = digitsByCurrency.get(currencyCode);
  if (digits === undefined) {
    // Building a NumberFormat costs far more than a booking's queries: once per currency.
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency: currencyCode }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    digitsByCurrency.set(currencyCode, digits);
  }
  return digits;
}

/** 12.5 EUR -> 1250; undefined when the amount has more decimals than the currency allows. */
export function toMinorUnits(amount: number, currencyCode: string): number | undefined {
  const scaled = amount * 10 ** minorDigits(currencyCode);
  const rounded = Math.round(scaled);
  return Math.abs(scaled - rounded) < 1e-6 ? rounded : undefined;
}

export function fromMinorUnits(amountMinor: number, currencyCode: string): number {
  return amountMinor / 10 ** minorDigits(currencyCode);
}

/** "102.50 GBP" for messages. */
export function formatMoney(amountMinor: number, currencyCode: string): string {
  return `${fromMinorUnits(amountMinor, currencyCode).toFixed(minorDigits(currencyCode))} ${currencyCode}`;
}
