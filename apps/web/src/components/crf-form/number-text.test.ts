import { describe, expect, it } from 'vitest';
import { cleanNumberText, parseNumberText } from './number-text.ts';

const height = { type: 'decimal', decimals: 1, min: 0 } as const;
const threshold = { type: 'integer', min: -10 } as const;

describe('cleanNumberText', () => {
  it('keeps only digits and one dot for height/weight-like items (spec §5)', () => {
    expect(cleanNumberText(height, '1a7b0')).toBe('170');
    expect(cleanNumberText(height, '170.')).toBe('170.');
    expect(cleanNumberText(height, '17.0.5')).toBe('17.0');
    expect(cleanNumberText(height, '-65')).toBe('65');
    expect(cleanNumberText(height, '65,5')).toBe('655');
  });

  it('limits decimal places to the item’s decimals', () => {
    expect(cleanNumberText(height, '65.55')).toBe('65.5');
    expect(cleanNumberText({ type: 'decimal', decimals: 3 }, '1.23456')).toBe('1.234');
    expect(cleanNumberText({ type: 'decimal', decimals: 0 }, '1.5')).toBe('15');
  });

  it('integers take no dot; a minus sign only where the range allows negatives', () => {
    expect(cleanNumberText(threshold, '-5')).toBe('-5');
    expect(cleanNumberText(threshold, '1.5')).toBe('15');
    expect(cleanNumberText({ type: 'integer', min: 0 }, '-5')).toBe('5');
  });
});

describe('parseNumberText', () => {
  it('gives null while the text is empty or unfinished', () => {
    expect(parseNumberText('')).toBeNull();
    expect(parseNumberText('-')).toBeNull();
    expect(parseNumberText('.')).toBeNull();
    expect(parseNumberText('170.')).toBe(170);
    expect(parseNumberText('-5')).toBe(-5);
    expect(parseNumberText('0.5')).toBe(0.5);
  });
});
