import type { SectionDefinition } from '@cdms/study';
import { type ReactNode, useId } from 'react';
import styles from './crf-form.module.css';
import {
  useCrfForm,
  useCrfText,
  useItemValue,
  useSectionView,
  useSetItemValue,
} from './crf-form-context.tsx';

/** The card frame of a section: title, "not done" checkbox or mark, help text. */
export function SectionFrame({
  section,
  actions,
  children,
}: {
  section: SectionDefinition;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { language, sectionActions } = useCrfForm();
  const view = useSectionView(section.key);
  const titleId = useId();
  if (view && !view.visible) return null;
  const ownsNotDone =
    section.notDoneItem !== undefined && section.items.some((i) => i.key === section.notDoneItem);
  return (
    <section
      className={styles.section}
      aria-labelledby={titleId}
      data-section={section.key}
      data-not-done={view?.notDone || undefined}
    >
      <header className={styles.sectionHeader}>
        <h3 id={titleId} className={styles.sectionTitle}>
          {section.label[language]}
        </h3>
        <div className={styles.sectionActions}>
          {section.notDoneItem !== undefined && ownsNotDone ? (
            <NotDoneToggle itemKey={section.notDoneItem} section={section} />
          ) : null}
          {section.notDoneItem !== undefined && !ownsNotDone && view?.notDone ? <NotDoneMark /> : null}
          {actions}
          {sectionActions?.(section, titleId)}
        </div>
      </header>
      {section.help ? <p className={styles.sectionHelp}>{section.help[language]}</p> : null}
      <div className={styles.sectionBody}>{children}</div>
    </section>
  );
}

/** The section's "not done" checkbox, in its header: it stays enabled while the section is disabled. */
function NotDoneToggle({ itemKey, section }: { itemKey: string; section: SectionDefinition }) {
  const { language, readOnly } = useCrfForm();
  const value = useItemValue({ itemKey });
  const setValue = useSetItemValue({ itemKey });
  const item = section.items.find((i) => i.key === itemKey);
  return (
    <label className={styles.notDoneToggle}>
      <input
        type="checkbox"
        checked={value === true}
        disabled={readOnly}
        onChange={(event) => setValue(event.target.checked)}
      />
      <span>{item?.label[language]}</span>
    </label>
  );
}

function NotDoneMark() {
  const t = useCrfText();
  return <span className={styles.notDoneMark}>{t('notDone')}</span>;
}
