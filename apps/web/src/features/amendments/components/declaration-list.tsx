import type { AmendmentDeclarations } from '@cdms/study';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { type DeclarationEntry, declarationEntries, withoutDeclaration } from '../lib/declarations.ts';
import styles from './amendments.module.css';

/**
 * What the amendment declares so far, in words. While a draft, each can be taken out again (a wrong
 * answer undone: the set is sent without it and the question comes back).
 */
export function DeclarationList({
  declarations,
  onRemove,
  pending,
}: {
  declarations: AmendmentDeclarations;
  /** Null when the amendment is published or discarded: nothing can be taken out. */
  onRemove: ((next: AmendmentDeclarations) => void) | null;
  pending: boolean;
}) {
  const { t } = useTranslation('amendments');
  const id = useId();
  const entries = declarationEntries(declarations);
  return (
    <section className={`${listStyles.card} ${styles.section}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {t('declarations.title', { count: entries.length })}
      </h2>
      {entries.length === 0 ? (
        <p className={styles.hint}>{t('declarations.none')}</p>
      ) : (
        <ul className={styles.lines}>
          {entries.map((entry) => {
            const text = declarationText(entry, t);
            return (
              <li key={`${entry.kind} ${entry.index}`} className={styles.declaration}>
                <span>{text}</span>
                {onRemove ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={pending}
                    aria-label={t('declarations.removeLabel', { declaration: text })}
                    onClick={() => onRemove(withoutDeclaration(declarations, entry))}
                  >
                    {t('declarations.remove')}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A declaration in the reader's words, with the definition's keys as they are written. */
function declarationText(
  entry: DeclarationEntry,
  t: (key: string, values: Record<string, string>) => string,
) {
  switch (entry.kind) {
    case 'formRenames':
      return t('declarations.formRename', { from: entry.value.from, to: entry.value.to });
    case 'itemRenames':
      return t('declarations.itemRename', {
        form: entry.value.form,
        from: entry.value.from,
        to: entry.value.to,
      });
    case 'codeMappings':
      return t('declarations.codeMapping', {
        codeList: entry.value.codeList,
        map: Object.entries(entry.value.map)
          .map(([from, to]) => `${from} → ${to}`)
          .join(', '),
      });
    case 'typeConversions':
      return t('declarations.typeConversion', {
        form: entry.value.form,
        item: entry.value.item,
        to: entry.value.to,
      });
    case 'replacements':
      return entry.value.form
        ? t('declarations.itemReplacement', {
            form: entry.value.form,
            removed: entry.value.removed,
            added: entry.value.added,
          })
        : t('declarations.formReplacement', { removed: entry.value.removed, added: entry.value.added });
  }
}
