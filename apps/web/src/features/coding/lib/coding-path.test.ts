import { describe, expect, it } from 'vitest';
import { pathLevels, pathLine } from './coding-path.ts';

const level = (code: string, en: string, ko: string) => ({ code, name: { en, ko } });

describe('coding paths in words', () => {
  const meddra = {
    kind: 'meddra' as const,
    llt: { ...level('1', 'Earache', '귀앓이'), current: true },
    pt: level('2', 'Ear pain', '귀 통증'),
    hlt: level('3', 'External ear disorders NEC', '외이 장애'),
    hlgt: level('4', 'External ear disorders', '외이'),
    soc: level('5', 'Ear and labyrinth disorders', '귀 및 미로 장애'),
  };

  it('reads LLT › PT › SOC in the reader language, and the five levels for the panel', () => {
    expect(pathLine(meddra, 'en')).toBe('Earache (1) › Ear pain (2) › Ear and labyrinth disorders (5)');
    expect(pathLine(meddra, 'ko')).toBe('귀앓이 (1) › 귀 통증 (2) › 귀 및 미로 장애 (5)');
    expect(pathLevels(meddra, 'en').map((entry) => entry.level)).toEqual(['llt', 'pt', 'hlt', 'hlgt', 'soc']);
    expect(pathLine(null, 'en')).toBe('');
  });

  it('reads a drug with its ATC codes', () => {
    const drug = {
      kind: 'whodrug' as const,
      drug: level('90000601001', 'Paracetamol', 'Paracetamol'),
      atc: [{ code: 'N92BE01', text: 'PARACETAMOL' }],
    };
    expect(pathLine(drug, 'en')).toBe('Paracetamol › N92BE01 PARACETAMOL');
    expect(pathLine({ ...drug, atc: [] }, 'ko')).toBe('Paracetamol');
  });
});
