import type { CodingPath } from '@cdms/contract';

/** A code's path in one line, in the reader's language: `LLT › PT › SOC` or `drug › ATC`. */
export function pathLine(path: CodingPath | null, language: 'ko' | 'en'): string {
  if (!path) return '';
  if (path.kind === 'meddra')
    return [path.llt, path.pt, path.soc]
      .map((level) => `${level.name[language]} (${level.code})`)
      .join(' › ');
  const atc = path.atc.map((entry) => `${entry.code} ${entry.text}`).join(', ');
  return atc ? `${path.drug.name[language]} › ${atc}` : path.drug.name[language];
}

export type PathLevel = 'llt' | 'pt' | 'hlt' | 'hlgt' | 'soc' | 'drug' | 'atc';

/** Every level of a path for the panel (LLT → PT → HLT → HLGT → SOC, or drug → ATC); `level` names it. */
export function pathLevels(
  path: CodingPath,
  language: 'ko' | 'en',
): Array<{ level: PathLevel; text: string }> {
  if (path.kind === 'meddra')
    return (['llt', 'pt', 'hlt', 'hlgt', 'soc'] as const).map((level) => ({
      level,
      text: `${path[level].name[language]} (${path[level].code})`,
    }));
  return [
    { level: 'drug' as const, text: `${path.drug.name[language]} (${path.drug.code})` },
    ...path.atc.map((entry) => ({ level: 'atc' as const, text: `${entry.code} ${entry.text}` })),
  ];
}
