import { describe, expect, it } from 'vitest';
import { addressBreakPieces } from './address-breaks.ts';

describe('addressBreakPieces', () => {
  it('breaks an e-mail address only before the @ and before the dots of its domain', () => {
    expect(addressBreakPieces('coordinator02@demo.cdms')).toEqual(['coordinator02', '@demo', '.cdms']);
    expect(addressBreakPieces('first.last@mail.example.co.kr')).toEqual([
      'first.last',
      '@mail',
      '.example',
      '.co',
      '.kr',
    ]);
    // The pieces make up the address, nothing added or lost.
    expect(addressBreakPieces('first.last@mail.example.co.kr').join('')).toBe(
      'first.last@mail.example.co.kr',
    );
  });

  it('keeps anything else whole', () => {
    expect(addressBreakPieces('010-1234-5678')).toEqual(['010-1234-5678']);
    expect(addressBreakPieces('')).toEqual(['']);
  });
});
