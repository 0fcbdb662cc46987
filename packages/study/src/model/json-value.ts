// Subject data is plain JSON so that the browser, the server and an ODM export all see the same shape.
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };

/** One form's answers: item key → value. A repeating group is an array of row objects keyed by item keys. */
export type FormValues = Record<string, JsonValue>;

/** Everything recorded for one subject: visit key → form key → values. */
export type SubjectData = Record<string, Record<string, FormValues>>;
