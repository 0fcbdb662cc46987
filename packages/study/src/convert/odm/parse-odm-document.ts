import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { LocalizedText } from '../../model/localized-text.ts';
import type { ImportProblem } from '../redcap/redcap-dictionary.ts';
import { CDMS_ODM_NAMESPACE } from './odm-metadata-names.ts';

/**
 * The first steps of reading any ODM file, shared by `readOdmMetadata` and `listOdmMetaDataVersions`:
 * the refusals (a DOCTYPE or ENTITY declaration, XML that is not well formed, a root that is not ODM
 * 1.3) and one parse with one parser configuration.
 */
export interface OdmDocument {
  /** The file's text without a byte order mark (for the lines of problems). */
  text: string;
  /** The parsed document, whose one element is the root. */
  document: Node;
  root: Node;
  /** Prefix → namespace URI, from the declarations anywhere in the file. */
  namespaces: Map<string, string>;
  /** ODM's element names as the file spells them (with its prefix, usually none). */
  odm: (local: string) => string;
  /** Our extension's element names as the file spells them (a name no element has when it is not declared). */
  cdms: (local: string) => string;
  /** The first Study (ODM files hold one; the others are not read). */
  study: Node | undefined;
  studyCount: number;
}

/** The parsed ODM 1.3 document, or the one error that refuses the file. */
export function parseOdmDocument(xml: string): { document: OdmDocument } | { refusal: ImportProblem } {
  const refuse = (message: LocalizedText, line?: number, column?: number) => ({
    refusal: {
      severity: 'error' as const,
      message,
      ...(line ? { line } : {}),
      ...(column ? { column: String(column) } : {}),
    },
  });
  const text = xml.replace(/^\uFEFF/, '');
  // A declaration is looked for in the raw text, before any parser sees it: no entity is ever expanded.
  const declaration = /<!(DOCTYPE|ENTITY)/i.exec(text);
  if (declaration) {
    return refuse(
      {
        en: `The file holds a ${declaration[1]?.toUpperCase()} declaration, which ODM never needs: refused for safety (external entities, entity expansion).`,
        ko: `파일에 ${declaration[1]?.toUpperCase()} 선언이 있습니다. ODM에는 필요 없는 선언이므로 안전을 위해 거부합니다(외부 엔티티, 엔티티 확장 공격).`,
      },
      lineAt(text, declaration.index),
    );
  }
  const wellFormed = XMLValidator.validate(text);
  if (wellFormed !== true) {
    return refuse(
      {
        en: `Not well-formed XML: ${wellFormed.err.msg}`,
        ko: `올바른 XML이 아닙니다: ${wellFormed.err.msg}`,
      },
      wellFormed.err.line,
      wellFormed.err.col,
    );
  }
  const document = parser.parse(text) as Node;
  const rootName = Object.keys(document).find((name) => !name.startsWith('?') && !name.startsWith('#'));
  const root = rootName ? children(document, rootName)[0] : undefined;
  const namespaces = collectNamespaces(document);
  const [rootPrefix, rootLocal] = splitName(rootName ?? '');
  const rootNamespace = namespaces.get(rootPrefix);
  if (!root || rootLocal !== 'ODM' || !rootNamespace?.startsWith(ODM_13_NAMESPACE)) {
    const odm2 = rootNamespace?.startsWith('http://www.cdisc.org/ns/odm/v2');
    return refuse(
      odm2
        ? {
            en: 'This is an ODM 2.0 document; study metadata is read from ODM 1.3.x. Export the study as ODM 1.3.2.',
            ko: 'ODM 2.0 문서입니다. 시험 메타데이터는 ODM 1.3.x에서만 읽습니다. ODM 1.3.2로 내보낸 파일을 올려 주세요.',
          }
        : {
            en: `Not a CDISC ODM 1.3 document (root element ${rootName ?? 'none'}, namespace ${rootNamespace ?? 'none'}).`,
            ko: `CDISC ODM 1.3 문서가 아닙니다(최상위 요소 ${rootName ?? '없음'}, 네임스페이스 ${rootNamespace ?? '없음'}).`,
          },
    );
  }
  // Element names as the file spells them: ODM's with its prefix (usually none), ours with ours.
  const odmPrefix = rootPrefix;
  const cdmsPrefix = [...namespaces].find(([, uri]) => uri === CDMS_ODM_NAMESPACE)?.[0];
  const odm = (local: string) => (odmPrefix === '' ? local : `${odmPrefix}:${local}`);
  const cdms = (local: string) => (cdmsPrefix === undefined ? `\u0000${local}` : `${cdmsPrefix}:${local}`);
  const studies = children(root, odm('Study'));
  return {
    document: { text, document, root, namespaces, odm, cdms, study: studies[0], studyCount: studies.length },
  };
}

/** An element as fast-xml-parser gives it: `@name` attributes, `#text`, and each child name → a list. */
export type Node = Record<string, unknown>;

export const ODM_13_NAMESPACE = 'http://www.cdisc.org/ns/odm/v1.3';
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Prefixes are kept: a vendor's element is told from ODM's by its namespace.
  removeNSPrefix: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  alwaysCreateTextNode: true,
  // Every element as a list, so one child and many read the same way.
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  processEntities: true,
  // Numeric character references (&#10;…, which the writer uses for line breaks in attributes).
  htmlEntities: true,
});

export const children = (node: Node | undefined, name: string): Node[] =>
  (node?.[name] as Node[] | undefined) ?? [];
export const attribute = (node: Node | undefined, name: string): string | undefined =>
  node?.[`@${name}`] as string | undefined;
export const textOf = (node: Node | undefined): string => (node?.['#text'] as string | undefined) ?? '';

export function splitName(name: string): [prefix: string, local: string] {
  const colon = name.indexOf(':');
  return colon < 0 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)];
}

/** The 1-based line of a character offset. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** Every element of the tree, depth first (the document itself first). */
export function* walk(node: Node): Generator<[name: string, node: Node]> {
  for (const [name, value] of Object.entries(node)) {
    if (name.startsWith('@') || name.startsWith('#') || !Array.isArray(value)) continue;
    for (const child of value as Node[]) {
      if (typeof child !== 'object' || child === null) continue;
      yield [name, child];
      yield* walk(child);
    }
  }
}

/**
 * Prefix → namespace URI, from the declarations anywhere in the file. ODM files declare them on the
 * root; a prefix declared twice with different URIs (legal, never seen in ODM) keeps the first.
 */
export function collectNamespaces(document: Node): Map<string, string> {
  const namespaces = new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);
  for (const [, node] of walk(document)) {
    for (const [name, value] of Object.entries(node)) {
      if (name === '@xmlns' && !namespaces.has('')) namespaces.set('', String(value));
      else if (name.startsWith('@xmlns:')) {
        const prefix = name.slice('@xmlns:'.length);
        if (!namespaces.has(prefix)) namespaces.set(prefix, String(value));
      }
    }
  }
  return namespaces;
}
