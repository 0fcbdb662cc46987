/** A contract schema as this module uses it (zod's, through the Standard Schema types it declares). */
export interface AnswerSchema {
  safeParse(value: unknown): { success: boolean; error?: unknown };
  '~standard': { types?: { input: unknown; output: unknown } };
}

type Types<S extends AnswerSchema> = NonNullable<S['~standard']['types']>;

/** What the schema returns for a valid answer. */
export type AnswerOf<S extends AnswerSchema> = Types<S>['output'];

/**
 * True when the schema leaves a valid answer as it is: no transforms, no defaults (its input type is
 * its output type). zod schemas of plain objects, strings, numbers, enums and arrays are such schemas.
 */
type Unchanged<S extends AnswerSchema> = [Types<S>['input']] extends [Types<S>['output']]
  ? [Types<S>['output']] extends [Types<S>['input']]
    ? true
    : false
  : false;

/** Runs `check` when the browser has nothing else to do (after the page has rendered the answer). */
function whenIdle(check: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(check, { timeout: 5_000 });
  else setTimeout(check, 200);
}

/**
 * The answer of `path`, as the page uses it at once, checked against its contract schema once the
 * browser is idle. For the answers the signed-in shell and the dashboard read before they are usable:
 * their schemas (and zod, 27 kB gzip) load afterwards, apart from the page's code. The server is the
 * authority on its answers (it builds them from the same schemas); this check only reports one that
 * does not match (a server and a web app of different versions) on the console, where the e2e tests
 * fail on it. Only for schemas that leave the answer as it is (`Unchanged`): an answer whose schema
 * transforms or fills in values must be parsed before use (`schema.parse`).
 */
export function checkedWhenIdle<S extends AnswerSchema>(
  path: string,
  answer: unknown,
  loadSchema: () => Promise<S>,
  // A schema that changes the answer is refused by the type checker: one argument too few.
  ..._unchanged: Unchanged<S> extends true ? [] : ['this schema changes the answer: parse it before use']
): AnswerOf<S> {
  whenIdle(() => {
    loadSchema().then(
      (schema) => {
        const result = schema.safeParse(answer);
        if (!result.success)
          console.error(`The answer of ${path} does not match the contract.`, result.error);
      },
      () => undefined, // the schemas could not be loaded (offline, a new release): nothing to report
    );
  });
  return answer as AnswerOf<S>;
}
