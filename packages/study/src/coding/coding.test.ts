import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DictionaryFormatError } from './dictionary-format-error.ts';
import { normalizeVerbatim, uniqueMatch } from './matching.ts';
import { parseMeddraAscii, pathsOfLlt } from './meddra-ascii.ts';
import { parseSynonymCsv } from './synonyms.ts';
import { atcOfDrug, parseWhoDrugB3 } from './whodrug-b3.ts';

const fictional = path.resolve(import.meta.dirname, '../../dictionaries/fictional');

function readFolder(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(folder)) {
    const full = path.join(folder, name);
    if (fs.statSync(full).isFile()) files[name] = fs.readFileSync(full, 'utf8');
  }
  return files;
}

const meddra90 = () =>
  parseMeddraAscii(
    readFolder(path.join(fictional, 'meddra-90.0')),
    readFolder(path.join(fictional, 'meddra-90.0/ko')),
  );

describe('MedDRA ASCII loader on the fictional distribution', () => {
  it('reads every level, the release and the Korean names', () => {
    const dictionary = meddra90();
    expect(dictionary.version).toBe('90.0');
    expect(dictionary.language).toBe('English');
    expect(dictionary.llts).toHaveLength(35);
    expect(dictionary.pts).toHaveLength(15);
    expect(dictionary.socs.map((soc) => soc.abbrev)).toEqual(['Ear', 'Nerv', 'Infec', 'Genrl']);
    expect(dictionary.llts.find((llt) => llt.code === '99001014')?.current).toBe(false);
    expect(dictionary.translated?.language).toBe('Korean');
    expect(dictionary.translated?.names.get('llt:99001062')).toBe('고막 재천공');
    expect(dictionary.translated?.names.get('soc:99100000')).toBe('귀 및 미로 장애');
  });

  it('walks an LLT to its SOCs, the primary path first', () => {
    const paths = pathsOfLlt(meddra90(), '99001011');
    expect(paths.map((p) => [p.llt.name, p.pt.name, p.hlt.code, p.soc.abbrev, p.primary])).toEqual([
      ['Earache', 'Ear pain', '99111000', 'Ear', true],
      ['Earache', 'Ear pain', '99411000', 'Genrl', false],
    ]);
    expect(pathsOfLlt(meddra90(), '12345678')).toEqual([]);
  });

  it('shows the second version: one LLT no longer current, one PT under another SOC', () => {
    const next = parseMeddraAscii(readFolder(path.join(fictional, 'meddra-90.1')));
    expect(next.version).toBe('90.1');
    expect(next.llts.find((llt) => llt.code === '99001072')?.current).toBe(false);
    expect(pathsOfLlt(next, '99000108')[0]?.soc.abbrev).toBe('Ear');
    expect(pathsOfLlt(meddra90(), '99000108')[0]?.soc.abbrev).toBe('Nerv');
  });

  it('refuses a line that does not fit the layout, naming file and line', () => {
    const files = readFolder(path.join(fictional, 'meddra-90.0'));
    const broken = { ...files, 'pt.asc': `${files['pt.asc']}99000199$Extra$$99100000$\n` };
    expect(() => parseMeddraAscii(broken)).toThrow(/pt\.asc line 16: 4 fields where the layout has 11/);
    const noDollar = { ...files, 'soc.asc': '99100000$Ear$Ear$$$$$$$$x' };
    expect(() => parseMeddraAscii(noDollar)).toThrow(/soc\.asc line 1: line does not end with \$/);
    const missing = { ...files };
    delete missing['mdhier.asc'];
    expect(() => parseMeddraAscii(missing)).toThrow(DictionaryFormatError);
    const orphan = { ...files, 'llt.asc': '99009999$Ghost$99009998$$$$$$$Y$$\n' };
    expect(() => parseMeddraAscii(orphan)).toThrow(/pt_code 99009998 is not in pt\.asc/);
    const badCode = { ...files, 'hlt_pt.asc': 'abc$99000101$\n' };
    expect(() => parseMeddraAscii(badCode)).toThrow(/hlt_code is not an 8-digit code/);
  });
});

describe('WHODrug B3 loader on the fictional distribution', () => {
  const dictionary = parseWhoDrugB3(readFolder(path.join(fictional, 'whodrug-b3-2026-1')));

  it('reads drug names from fixed columns and their ATC codes and texts', () => {
    expect(dictionary.version).toBe('2026-1 fictional');
    expect(dictionary.drugs).toHaveLength(18);
    const tylenol = dictionary.drugs.find((drug) => drug.name === 'Tylenol');
    expect(tylenol).toMatchObject({ code: '90000601002', drugRecordNumber: '900006', preferred: false });
    expect(atcOfDrug(dictionary, '900006')).toEqual([{ code: 'N92BE01', text: 'PARACETAMOL' }]);
    expect(dictionary.atcTexts.get('S')).toEqual({ level: 1, text: 'SENSORY ORGANS' });
  });

  it('refuses short lines, non-digit record numbers and links to unknown records', () => {
    const files = readFolder(path.join(fictional, 'whodrug-b3-2026-1'));
    expect(() => parseWhoDrugB3({ ...files, 'DD.txt': '900001' })).toThrow(
      /DD\.txt line 1: line is 6 characters/,
    );
    expect(() => parseWhoDrugB3({ ...files, 'DD.txt': 'ABCDEF010012Y26F0001F000101 261Amlodipine' })).toThrow(
      /DD\.txt line 1: drug record number/,
    );
    expect(() => parseWhoDrugB3({ ...files, 'DDA.txt': '999999010012C91AA01261Y' })).toThrow(
      /drug record 999999 is not in DD\.txt/,
    );
  });
});

describe('synonyms and matching', () => {
  it('reads the fictional synonym list and refuses bad rows', () => {
    const synonyms = parseSynonymCsv(fs.readFileSync(path.join(fictional, 'synonyms.csv'), 'utf8'));
    expect(synonyms).toContainEqual({ kind: 'whodrug', verbatim: '타이레놀', code: '90000601002' });
    expect(() => parseSynonymCsv('a,b,c\n')).toThrow(/header/);
    expect(() => parseSynonymCsv('kind,verbatim,code\nmeddra,x,123\n')).toThrow(
      /line 2: code must be an 8-digit/,
    );
    expect(() => parseSynonymCsv('kind,verbatim,code\nmeddra,X,99000101\nmeddra, x ,99000102\n')).toThrow(
      /line 3: the verbatim is listed twice/,
    );
  });

  it('matches regardless of case, width and spaces; several codes are no match', () => {
    expect(normalizeVerbatim('  Ear   PAIN ')).toBe('ear pain');
    expect(normalizeVerbatim('귀  통증')).toBe('귀 통증');
    expect(normalizeVerbatim('ＥＡＲ pain')).toBe('ear pain');
    expect(uniqueMatch([{ code: 'a' }, { code: 'a' }])).toEqual({ code: 'a' });
    expect(uniqueMatch([{ code: 'a' }, { code: 'b' }])).toBeNull();
    expect(uniqueMatch([])).toBeNull();
  });
});
