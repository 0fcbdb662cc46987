/**
 * The CLI's `--name value` options, read one way by every command: the value after the option's
 * first occurrence (undefined when absent or last), or every occurrence's value for a repeatable one.
 */
export function option(args: readonly string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

/** The values of a repeatable option, in the order given (`--site A --site B` → ['A', 'B']). */
export function repeatedOption(args: readonly string[], name: string): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    const value = args[index + 1];
    if (arg === `--${name}` && value !== undefined) values.push(value);
  });
  return values;
}
