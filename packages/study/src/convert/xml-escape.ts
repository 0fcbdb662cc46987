/**
 * Text and attribute values for the ODM writers (the data exports' and the design's). XML 1.0 cannot carry every Unicode string: the
 * control characters other than tab, line feed and carriage return, lone surrogates and U+FFFE/U+FFFF
 * are not allowed even as character references, so they are replaced by U+FFFD (a visible mark that
 * something was there) instead of producing a file no parser accepts.
 */

// Characters outside XML 1.0's `Char` production: C0 controls but \t \n \r, lone surrogates
// (a high one not followed by a low one, a low one not preceded by a high one), U+FFFE and U+FFFF.
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters XML forbids is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const REPLACEMENT_CHARACTER = '\uFFFD';

/** The text with every character XML 1.0 cannot carry replaced by U+FFFD. */
export function xmlSafeText(text: string): string {
  return text.replace(NOT_XML_CHAR, REPLACEMENT_CHARACTER);
}

const TEXT_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  // A parser turns a literal carriage return into a line feed: written as a reference it survives.
  '\r': '&#13;',
};

/** Element content: `&`, `<` and `>` escaped (`>` for `]]>`), `\r` kept, invalid characters replaced. */
// Most texts of an export (codes, numbers, dates, OIDs) need no escaping: one test of each text
// spares the two replacements — a tenth of an export's time went to them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML forbids or escapes.
const TEXT_NEEDS_WORK = /[&<>\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML forbids or escapes.
const ATTRIBUTE_NEEDS_WORK = /[&<>"'\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function escapeXmlText(text: string): string {
  if (!TEXT_NEEDS_WORK.test(text)) return text;
  return xmlSafeText(text).replace(/[&<>\r]/g, (char) => TEXT_ESCAPES[char] ?? char);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // Whitespace other than a space is normalised to a space in attributes unless written as a
  // character reference: keep line breaks and tabs of a value exactly.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** A double-quoted attribute value: markup, quotes and tab/newline/return escaped, invalid characters replaced. */
export function escapeXmlAttribute(value: string): string {
  if (!ATTRIBUTE_NEEDS_WORK.test(value)) return value;
  return xmlSafeText(value).replace(/[&<>"'\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

/** ` name="value"` for each defined attribute, in the order given; undefined and null are left out. */
export function xmlAttributes(
  attributes: Record<string, string | number | boolean | undefined | null>,
): string {
  let text = '';
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    text += ` ${name}="${escapeXmlAttribute(String(value))}"`;
  }
  return text;
}

/** `<Name attrs>text</Name>`: one element with escaped text content. */
export function textElement(
  name: string,
  text: string,
  attributes: Record<string, string | number | boolean | undefined | null> = {},
): string {
  return `<${name}${xmlAttributes(attributes)}>${escapeXmlText(text)}</${name}>`;
}
