import { and, eq, gt, lt, ne, notEmpty, op, param, ref } from '../model/expression-builders.ts';
import type { StudyDefinition } from '../model/study-definition.ts';

// A small definition that exercises every engine feature (variants, ND, conditions, repeating rows,
// derivations across forms and visits, built-in and defined checks, outcomes, windows). Tests only.

const label = { ko: '라벨', en: 'Label' };

export const miniStudy: StudyDefinition = {
  key: 'mini',
  version: '0.1.0',
  label,
  visitDate: { form: 'visit', item: 'date' },
  parameters: { limit: { value: 10, label } },
  codeLists: [
    {
      key: 'color',
      codes: [
        { code: 'red', label },
        { code: 'blue', label },
      ],
    },
  ],
  visits: [
    { key: 'a', label, group: 'screening', forms: ['visit', 'main', 'log'] },
    {
      key: 'b',
      label,
      group: 'follow_up',
      window: { anchorVisit: 'a', offsetDays: 7, minusDays: 1, plusDays: 2 },
      forms: ['visit', 'main'],
    },
  ],
  forms: [
    {
      key: 'visit',
      label,
      sections: [
        {
          key: 'visit',
          label,
          items: [{ key: 'date', type: 'date', label, required: true, notFuture: true }],
        },
      ],
    },
    {
      key: 'main',
      label,
      sections: [
        {
          key: 'head',
          label,
          items: [
            { key: 'nd', type: 'checkbox', label },
            { key: 'count', type: 'integer', label, min: 0, max: 5, required: true },
            // Defined before the item it reads, so a second derivation pass is needed.
            { key: 'quadruple', type: 'integer', label, derive: op('mul', ref('double'), 2) },
            { key: 'double', type: 'integer', label, derive: op('mul', ref('count'), 2) },
            { key: 'fromA', type: 'integer', label, derive: ref('a.main.count') },
          ],
        },
        {
          key: 'body',
          label,
          notDoneItem: 'nd',
          showWhen: ne(ref('count'), 0),
          items: [
            { key: 'name', type: 'text', label, maxLength: 5, pattern: '[a-z]+', required: true },
            { key: 'amount', type: 'decimal', label, decimals: 1, max: 100, rangeSeverity: 'warning' },
            { key: 'rough', type: 'decimal', label, min: 1 },
            {
              key: 'color',
              type: 'singleChoice',
              label,
              codeList: 'color',
              requiredWhen: gt(ref('count'), 2),
            },
            { key: 'tags', type: 'multipleChoice', label, codeList: 'color' },
            { key: 'flag', type: 'yesNo', label },
            { key: 'time', type: 'time', label },
            { key: 'note', type: 'textarea', label },
            { key: 'hiddenNote', type: 'text', label, showWhen: eq(ref('flag'), 'N') },
          ],
        },
        {
          key: 'rows',
          label,
          showWhen: eq(ref('flag'), 'Y'),
          repeating: { key: 'entries', rowsRequired: true, maxRows: 2 },
          items: [
            { key: 'title', type: 'text', label, required: true },
            { key: 'start', type: 'date', label, notFuture: true },
            { key: 'stop', type: 'date', label, showWhen: notEmpty(ref('start')) },
          ],
        },
      ],
      variants: [
        {
          visits: ['b'],
          sections: [
            { key: 'head', label, items: [{ key: 'count', type: 'integer', label, required: true }] },
          ],
        },
      ],
      checks: [
        {
          id: 'main.count.big',
          item: 'count',
          when: gt(ref('count'), param('limit')),
          severity: 'hard',
          message: label,
        },
        {
          id: 'main.rows.order',
          item: 'stop',
          visits: ['a'],
          when: lt(ref('stop'), ref('start')),
          severity: 'query',
          message: label,
        },
        {
          id: 'main.name.x',
          item: 'name',
          visits: ['a'],
          when: and(eq(ref('name'), 'x'), eq(ref('nd'), ref('nd'))),
          severity: 'warning',
          message: label,
        },
      ],
      outcomes: [
        {
          id: 'main.zero',
          kind: 'goToEndOfStudy',
          when: eq(ref('count'), 0),
          target: { visit: 'a', form: 'log' },
          message: label,
        },
      ],
    },
    {
      key: 'log',
      label,
      sections: [
        { key: 'log', label, items: [{ key: 'copy', type: 'integer', label, derive: ref('main.count') }] },
      ],
    },
  ],
};
