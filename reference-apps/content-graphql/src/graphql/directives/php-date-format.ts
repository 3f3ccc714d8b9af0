/**
 * PHP `date()` formatting, which the CMS's `@formatDateTime` uses. Every letter PHP documents is supported;
 * `\` escapes the next character. The time zone is an IANA name (`America/New_York`); invalid names throw.
 */
export const ATOM = 'Y-m-d\\TH:i:sP';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  weekday: number;
  offsetMinutes: number;
  abbreviation: string;
}

// One formatter per valid zone name: building an Intl.DateTimeFormat costs far more than formatting with it.
// Only valid names are kept, and there are a few hundred of them, so hostile input cannot grow the map.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        timeZoneName: 'short',
      });
    } catch {
      return null;
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function partsIn(date: Date, timeZone: string): LocalParts {
  if (timeZone === 'UTC') {
    // The default zone needs no Intl round trip.
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
      ms: date.getUTCMilliseconds(),
      weekday: date.getUTCDay(),
      offsetMinutes: 0,
      abbreviation: 'UTC',
    };
  }
  const formatter = formatterFor(timeZone);
  if (!formatter) throw new RangeError(`Invalid time zone specified: ${timeZone}`);
  const parts = Object.fromEntries(formatter.formatToParts(date).map((p) => [p.type, p.value]));
  const year = Number(parts.year),
    month = Number(parts.month),
    day = Number(parts.day),
    hour = Number(parts.hour),
    minute = Number(parts.minute),
    second = Number(parts.second);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetMinutes = Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
  let abbreviation = String(parts.timeZoneName ?? 'UTC');
  if (/^GMT[+-]/.test(abbreviation) || abbreviation === 'GMT') abbreviation = offsetString(offsetMinutes, true);
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    ms: date.getUTCMilliseconds(),
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    offsetMinutes,
    abbreviation,
  };
}

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

function offsetString(minutes: number, colon: boolean): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${colon ? ':' : ''}${pad(abs % 60)}`;
}

function isoWeek(year: number, month: number, day: number): { week: number; year: number } {
  const date = new Date(Date.UTC(year, month - 1, day));
  const dayNumber = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - dayNumber + 3);
  const weekYear = date.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(weekYear, 0, 4));
  const week =
    1 +
    Math.round(((date.getTime() - firstThursday.getTime()) / 86400000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
  return { week, year: weekYear };
}

export function isValidTimeZone(timeZone: string): boolean {
  return timeZone === 'UTC' || formatterFor(timeZone) !== null;
}

export function formatPhpDate(date: Date, format: string, timeZone = 'UTC'): string {
  const p = partsIn(date, timeZone);
  const leap = (p.year % 4 === 0 && p.year % 100 !== 0) || p.year % 400 === 0;
  const daysInMonth = new Date(Date.UTC(p.year, p.month, 0)).getUTCDate();
  const dayOfYear = Math.round((Date.UTC(p.year, p.month - 1, p.day) - Date.UTC(p.year, 0, 1)) / 86400000);
  const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    switch (c) {
      case 'd':
        out += pad(p.day);
        break;
      case 'D':
        out += DAY_NAMES[p.weekday]!.slice(0, 3);
        break;
      case 'j':
        out += p.day;
        break;
      case 'l':
        out += DAY_NAMES[p.weekday];
        break;
      case 'N':
        out += p.weekday === 0 ? 7 : p.weekday;
        break;
      case 'S':
        out +=
          p.day % 10 === 1 && p.day !== 11
            ? 'st'
            : p.day % 10 === 2 && p.day !== 12
              ? 'nd'
              : p.day % 10 === 3 && p.day !== 13
                ? 'rd'
                : 'th';
        break;
      case 'w':
        out += p.weekday;
        break;
      case 'z':
        out += dayOfYear;
        break;
      case 'W':
        out += pad(isoWeek(p.year, p.month, p.day).week);
        break;
      case 'F':
        out += MONTH_NAMES[p.month - 1];
        break;
      case 'm':
        out += pad(p.month);
        break;
      case 'M':
        out += MONTH_NAMES[p.month - 1]!.slice(0, 3);
        break;
      case 'n':
        out += p.month;
        break;
      case 't':
        out += daysInMonth;
        break;
      case 'L':
        out += leap ? 1 : 0;
        break;
      case 'o':
        out += isoWeek(p.year, p.month, p.day).year;
        break;
      case 'Y':
        out += p.year;
        break;
      case 'y':
        out += pad(p.year % 100);
        break;
      case 'a':
        out += p.hour < 12 ? 'am' : 'pm';
        break;
      case 'A':
        out += p.hour < 12 ? 'AM' : 'PM';
        break;
      case 'B': {
        const beat = Math.floor(
          (((date.getUTCHours() + 1) % 24) * 3600 + date.getUTCMinutes() * 60 + date.getUTCSeconds()) / 86.4,
        );
        out += pad(beat, 3);
        break;
      }
      case 'g':
        out += hour12;
        break;
      case 'G':
        out += p.hour;
        break;
      case 'h':
        out += pad(hour12);
        break;
      case 'H':
        out += pad(p.hour);
        break;
      case 'i':
        out += pad(p.minute);
        break;
      case 's':
        out += pad(p.second);
        break;
      case 'u':
        out += pad(p.ms * 1000, 6);
        break;
      case 'v':
        out += pad(p.ms, 3);
        break;
      case 'e':
        out += timeZone;
        break;
      case 'I':
        out += isDst(date, timeZone) ? 1 : 0;
        break;
      case 'O':
        out += offsetString(p.offsetMinutes, false);
        break;
      case 'P':
        out += offsetString(p.offsetMinutes, true);
        break;
      case 'p':
        out += p.offsetMinutes === 0 ? 'Z' : offsetString(p.offsetMinutes, true);
        break;
      case 'T':
        out += p.abbreviation;
        break;
      case 'Z':
        out += p.offsetMinutes * 60;
        break;
      case 'c':
        out += formatPhpDate(date, 'Y-m-d\\TH:i:sP', timeZone);
        break;
      case 'r':
        out += formatPhpDate(date, 'D, d M Y H:i:s O', timeZone);
        break;
      case 'U':
        out += Math.floor(date.getTime() / 1000);
        break;
      case '\\':
        i++;
        if (i < format.length) out += format[i];
        break;
      default:
        out += c;
    }
  }
  return out;
}

function isDst(date: Date, timeZone: string): boolean {
  const year = partsIn(date, timeZone).year;
  const jan = partsIn(new Date(Date.UTC(year, 0, 1)), timeZone).offsetMinutes;
  const jul = partsIn(new Date(Date.UTC(year, 6, 1)), timeZone).offsetMinutes;
  return Math.max(jan, jul) !== Math.min(jan, jul) && partsIn(date, timeZone).offsetMinutes === Math.max(jan, jul);
}
