import { VISIT_GROUPS, type VisitGroup, type VisitWindow } from '@cdms/study';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/text-field.tsx';
import { labelIn, type VisitFields } from '../lib/designer-state.ts';
import styles from './designer.module.css';
import { ElementDialog } from './element-dialog.tsx';

export const VISIT_DIALOG = 'designer-visit';

/** The window's three numbers as typed; applied only when each is a whole number (plus and minus ≥ 0). */
interface WindowText {
  anchorVisit: string;
  offsetDays: string;
  minusDays: string;
  plusDays: string;
}

function windowText(window: VisitWindow | undefined): WindowText {
  return {
    anchorVisit: window?.anchorVisit ?? '',
    offsetDays: window ? String(window.offsetDays) : '',
    minusDays: window ? String(window.minusDays) : '0',
    plusDays: window ? String(window.plusDays) : '0',
  };
}

const wholeNumber = (text: string, min?: number) =>
  /^-?\d+$/.test(text.trim()) && (min === undefined || Number(text) >= min);

/**
 * Adds a visit (key, labels, group, window; it starts with no forms) or edits one (labels, group and
 * window). A window is relative to an anchor visit: expected on the anchor's date + offset days,
 * acceptable from minus days before to plus days after.
 */
export function VisitDialog({
  initial,
  takenKeys,
  visits,
  onApply,
}: {
  /** The visit being edited; null to add one. */
  initial: VisitFields | null;
  takenKeys: readonly string[];
  /** The study's visits, the anchors a window can be relative to (the edited visit itself left out). */
  visits: readonly Pick<VisitFields, 'key' | 'label'>[];
  onApply: (visit: VisitFields) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const groupId = useId();
  const anchorId = useId();
  const [group, setGroup] = useState<VisitGroup>(initial?.group ?? 'follow_up');
  const [window, setWindow] = useState<WindowText>(() => windowText(initial?.window));
  const [windowProblem, setWindowProblem] = useState<string | undefined>(undefined);
  const anchors = visits.filter((visit) => visit.key !== initial?.key);

  /** The window to apply, null when it has a problem (said in the dialog). */
  function readWindow(): VisitWindow | undefined | null {
    if (window.anchorVisit === '') return undefined;
    if (
      !wholeNumber(window.offsetDays) ||
      !wholeNumber(window.minusDays, 0) ||
      !wholeNumber(window.plusDays, 0)
    ) {
      setWindowProblem(t('dialog.windowInvalid'));
      return null;
    }
    setWindowProblem(undefined);
    return {
      anchorVisit: window.anchorVisit,
      offsetDays: Number(window.offsetDays),
      minusDays: Number(window.minusDays),
      plusDays: Number(window.plusDays),
    };
  }

  return (
    <ElementDialog
      name={VISIT_DIALOG}
      title={initial ? t('dialog.editVisit') : t('dialog.addVisit')}
      initial={initial}
      takenKeys={takenKeys}
      beforeApply={() => readWindow() !== null}
      onApply={(values) => {
        const read = readWindow();
        onApply({ key: values.key, label: values.label, group, ...(read ? { window: read } : {}) });
      }}
    >
      <div className={styles.selectField}>
        <label htmlFor={groupId}>{t('dialog.group')}</label>
        <select id={groupId} value={group} onChange={(event) => setGroup(event.target.value as VisitGroup)}>
          {VISIT_GROUPS.map((option) => (
            <option key={option} value={option}>
              {t(`groups.${option}`)}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.selectField}>
        <label htmlFor={anchorId}>{t('dialog.windowAnchor')}</label>
        <select
          id={anchorId}
          value={window.anchorVisit}
          onChange={(event) => setWindow({ ...window, anchorVisit: event.target.value })}
        >
          <option value="">{t('dialog.noWindow')}</option>
          {anchors.map((visit) => (
            <option key={visit.key} value={visit.key}>
              {labelIn(visit.label, i18n.language)} ({visit.key})
            </option>
          ))}
        </select>
      </div>
      {window.anchorVisit === '' ? null : (
        <div className={styles.numberFields}>
          <TextField
            label={t('dialog.offsetDays')}
            inputMode="numeric"
            value={window.offsetDays}
            error={windowProblem}
            onChange={(event) => setWindow({ ...window, offsetDays: event.target.value })}
          />
          <TextField
            label={t('dialog.minusDays')}
            inputMode="numeric"
            value={window.minusDays}
            onChange={(event) => setWindow({ ...window, minusDays: event.target.value })}
          />
          <TextField
            label={t('dialog.plusDays')}
            inputMode="numeric"
            value={window.plusDays}
            onChange={(event) => setWindow({ ...window, plusDays: event.target.value })}
          />
        </div>
      )}
    </ElementDialog>
  );
}
