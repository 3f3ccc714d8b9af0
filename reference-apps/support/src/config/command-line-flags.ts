/** Reads `--name value` or `--name=value` from argv; the last occurrence wins. */
export function readFlag(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === `--${name}`) {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) throw new Error(`Flag --${name} needs a value`);
      value = next;
      index++;
    } else if (argument.startsWith(`--${name}=`)) {
      value = argument.slice(name.length + 3);
    }
  }
  return value;
}
