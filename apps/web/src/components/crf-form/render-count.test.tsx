import { type ItemDefinition, type StudyDefinition, studyDefinitionSchema } from '@cdms/study';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Profiler, type ProfilerOnRenderCallback } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CrfForm } from './crf-form.tsx';
import { renderProbe } from './render-probe.ts';
import { createSubjectStore } from './subject-store.ts';
import { Providers } from './test-utils.tsx';

// Spec for the renderer: typing in a 200-item form stays smooth. A keystroke renders the item typed in,
// and the engine's re-evaluation renders only items whose state, messages or derived value changed.

afterEach(() => {
  renderProbe.onItemRender = null;
  cleanup();
});

const ITEM_COUNT = 200;
const t = (text: string) => ({ ko: text, en: text });

function largeDefinition(): StudyDefinition {
  const sections = Array.from({ length: 10 }, (_, s) => ({
    key: `s${s}`,
    label: t(`Section ${s}`),
    items: Array.from({ length: ITEM_COUNT / 10 }, (_, i): ItemDefinition => {
      const n = s * (ITEM_COUNT / 10) + i;
      return n % 2 === 0
        ? {
            key: `i${n}`,
            type: 'decimal',
            label: t(`Item ${n}`),
            decimals: 1,
            min: 0,
            max: 500,
            required: true,
          }
        : { key: `i${n}`, type: 'text', label: t(`Item ${n}`), maxLength: 200 };
    }),
  }));
  // Rules reading the typed item, so the engine has real work and something does change.
  sections[0]?.items.push({
    key: 'double',
    type: 'decimal',
    label: t('Double of item 0'),
    decimals: 1,
    derive: { op: 'mul', args: [{ ref: 'i0' }, 2] },
  });
  return studyDefinitionSchema.parse({
    key: 'large',
    version: '1.0.0',
    label: t('Large'),
    codeLists: [],
    visits: [{ key: 'v1', label: t('V1'), group: 'screening', forms: ['big'] }],
    forms: [
      {
        key: 'big',
        label: t('Big form'),
        sections,
        checks: [
          {
            id: 'big.i0.high',
            item: 'i0',
            when: { op: 'gt', args: [{ ref: 'i0' }, 300] },
            severity: 'warning',
            message: t('High'),
          },
        ],
      },
    ],
  });
}

describe('render count on a 200-item form', () => {
  it('a keystroke re-renders only the item typed in; untouched items never re-render', async () => {
    const definition = largeDefinition();
    const store = createSubjectStore();
    const renders = new Map<string, number>();
    renderProbe.onItemRender = (path) => renders.set(path, (renders.get(path) ?? 0) + 1);
    const commits: number[] = [];
    const onRender: ProfilerOnRenderCallback = (_id, _phase, actualDuration) => commits.push(actualDuration);

    render(
      <Providers>
        <Profiler id="form" onRender={onRender}>
          <CrfForm
            definition={definition}
            visitKey="v1"
            formKey="big"
            store={store}
            language="en"
            today="2025-06-20"
            evaluationDelayMs={20}
          />
        </Profiler>
      </Providers>,
    );
    expect(renders.size).toBe(ITEM_COUNT + 1);
    const mountMs = commits.reduce((a, b) => a + b, 0);
    renders.clear();
    commits.length = 0;

    // Type "350" one character at a time into item 0, as a person would.
    const input = screen.getByLabelText(/^Item 0\b/) as HTMLInputElement;
    const keystrokeCommits: number[] = [];
    for (const text of ['3', '35', '350']) {
      const before = commits.length;
      fireEvent.change(input, { target: { value: text } });
      keystrokeCommits.push(...commits.slice(before));
    }
    // Each keystroke rendered item 0 and nothing else.
    expect(renders.get('i0')).toBe(3);
    expect([...renders.keys()]).toEqual(['i0']);

    // After the pause, the engine ran once: item 0 gets its warning, "double" its derived value.
    await waitFor(() => expect(screen.getByText('High')).toBeTruthy());
    await waitFor(() => expect((screen.getByLabelText(/Double/) as HTMLInputElement).value).toBe('700.0'));
    expect(renders.get('i150') ?? 0).toBe(0);
    expect(renders.get('i1') ?? 0).toBe(0);
    expect([...renders.keys()].sort()).toEqual(['double', 'i0']);

    // Replacing all values (sample data) re-renders the items whose value changed, not the others.
    renders.clear();
    act(() => store.replace({ v1: { big: { i150: 1 } } }));
    expect(renders.get('i150')).toBe(1);
    expect(renders.get('i151') ?? 0).toBe(0);

    const perKeystroke = keystrokeCommits.reduce((a, b) => a + b, 0) / 3;
    console.info(
      `[render-count] ${ITEM_COUNT}-item form: mount ${mountMs.toFixed(1)} ms; per keystroke ` +
        `${perKeystroke.toFixed(2)} ms React render time, 1 item rendered (of ${ITEM_COUNT + 1})`,
    );
    // Mounting 200 items takes seconds on a busy machine; this test counts renders, not time.
  }, 30_000);
});
