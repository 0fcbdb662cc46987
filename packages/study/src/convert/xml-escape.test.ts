import { describe, expect, it } from 'vitest';
import { escapeXmlAttribute, escapeXmlText, xmlAttributes, xmlSafeText } from './xml-escape.ts';

// Reading escaped text back through an ODM parser: apps/server/src/odm/xml-escape-read-back.test.ts.

describe('XML escaping', () => {
  it('escapes markup in text and quotes in attributes', () => {
    expect(escapeXmlText('a < b && c > d ]]>')).toBe('a &lt; b &amp;&amp; c &gt; d ]]&gt;');
    expect(escapeXmlAttribute(`"it's" <ok> & more`)).toBe('&quot;it&apos;s&quot; &lt;ok&gt; &amp; more');
    expect(xmlAttributes({ A: 'x"y', B: undefined, C: 3, D: null })).toBe(' A="x&quot;y" C="3"');
  });

  it('keeps tabs and line breaks of an attribute as character references (not normalised to spaces)', () => {
    expect(escapeXmlAttribute('one\ttwo\nthree\r')).toBe('one&#9;two&#10;three&#13;');
    expect(escapeXmlText('one\ttwo\nthree\r')).toBe('one\ttwo\nthree&#13;');
  });

  it('replaces characters XML 1.0 cannot carry with U+FFFD, and keeps everything else', () => {
    expect(xmlSafeText('a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg')).toBe(
      'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg',
    );
    expect(xmlSafeText('\uFFFE\uFFFF')).toBe('\uFFFD\uFFFD');
    // Lone surrogates go, a proper pair (an emoji) stays.
    expect(xmlSafeText('x\uD800y\uDC00z')).toBe('x\uFFFDy\uFFFDz');
    expect(xmlSafeText('고막 😀 \t\n\r')).toBe('고막 😀 \t\n\r');
    expect(escapeXmlAttribute('\u0007<')).toBe('\uFFFD&lt;');
  });
});
