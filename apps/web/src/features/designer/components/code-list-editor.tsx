import type { CodeList, StudyDefinition } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import {
  addCode,
  addCodeList,
  itemsUsingCodeList,
  moveCode,
  newCodeList,
  removeCode,
  removeCodeList,
  updateCode,
} from '../lib/code-list-edits.ts';
import type { DesignerEdit } from '../lib/designer-state.ts';
import styles from './designer.module.css';
import { AddKeyForm } from './element-fields.tsx';
import { Markers } from './markers.tsx';
import { ViewHeader } from './view-header.tsx';

/**
 * The study's code lists, which choice items choose from: a list added by its key, its codes (the
 * stored value) with their labels in Korean and English, reordered and removed. A list that items use
 * is not removed (they would lose their choices: the page names them). Changes go through the page's
 * history like every other edit.
 */
export function CodeListEditor({
  definition,
  readOnly,
  onEdit,
  onClose,
}: {
  definition: StudyDefinition;
  readOnly: boolean;
  onEdit: (edit: DesignerEdit) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('designer');
  const lists = definition.codeLists;
  const replace = (codeLists: CodeList[], coalesce?: string) => {
    if (!readOnly) onEdit({ type: 'replaceCodeLists', codeLists, ...(coalesce ? { coalesce } : {}) });
  };

  return (
    <div className={styles.formEditor}>
      <ViewHeader title={t('codeLists.title')} onClose={onClose} />
      <p className={styles.hint}>{t('codeLists.intro')}</p>
      {lists.length === 0 ? <p className={styles.hint}>{t('codeLists.none')}</p> : null}
      <div className={styles.codeLists}>
        {lists.map((list, listIndex) => {
          const users = itemsUsingCodeList(definition, list.key);
          return (
            <section
              key={list.key}
              className={styles.properties}
              aria-label={t('codeLists.list', { key: list.key })}
            >
              <div className={styles.propertiesHeader}>
                <h3 className={styles.panelTitle}>
                  <code>{list.key}</code>
                  <span className={styles.headerMeta}>
                    {' '}
                    {users.length > 0
                      ? t('codeLists.usedBy', { items: users.join(', ') })
                      : t('codeLists.unused')}
                  </span>
                </h3>
                {readOnly ? null : (
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={users.length > 0}
                    title={users.length > 0 ? t('codeLists.inUse') : undefined}
                    onClick={() => replace(removeCodeList(lists, listIndex))}
                  >
                    {t('codeLists.remove', { key: list.key })}
                  </Button>
                )}
              </div>
              <table className={styles.codeTable}>
                <caption className={styles.visuallyHidden}>{t('codeLists.list', { key: list.key })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('codeLists.code')}</th>
                    <th scope="col">{t('dialog.labelKo')}</th>
                    <th scope="col">{t('dialog.labelEn')}</th>
                    <th scope="col">
                      <span className={styles.visuallyHidden}>{t('codeLists.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.codes.map((code, codeIndex) => {
                    const place = `${list.key}/${codeIndex}`;
                    const row = t('codeLists.row', { list: list.key, number: codeIndex + 1 });
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a code's value is edited in place, its place is its identity
                      <tr key={codeIndex}>
                        <td>
                          <input
                            className={styles.codeInput}
                            aria-label={`${row}: ${t('codeLists.code')}`}
                            value={code.code}
                            readOnly={readOnly}
                            onChange={(event) =>
                              replace(
                                updateCode(lists, listIndex, codeIndex, {
                                  ...code,
                                  code: event.target.value,
                                }),
                                `${place}.code`,
                              )
                            }
                          />
                        </td>
                        <td>
                          <input
                            className={styles.codeInput}
                            lang="ko"
                            aria-label={`${row}: ${t('dialog.labelKo')}`}
                            value={code.label.ko}
                            readOnly={readOnly}
                            onChange={(event) =>
                              replace(
                                updateCode(lists, listIndex, codeIndex, {
                                  ...code,
                                  label: { ...code.label, ko: event.target.value },
                                }),
                                `${place}.ko`,
                              )
                            }
                          />
                        </td>
                        <td>
                          <input
                            className={styles.codeInput}
                            lang="en"
                            aria-label={`${row}: ${t('dialog.labelEn')}`}
                            value={code.label.en}
                            readOnly={readOnly}
                            onChange={(event) =>
                              replace(
                                updateCode(lists, listIndex, codeIndex, {
                                  ...code,
                                  label: { ...code.label, en: event.target.value },
                                }),
                                `${place}.en`,
                              )
                            }
                          />
                          <Markers label={code.label} />
                        </td>
                        <td className={styles.codeActions}>
                          {readOnly ? null : (
                            <>
                              <Button
                                variant="ghost"
                                size="sm"
                                aria-label={t('grid.moveUp', { name: row })}
                                disabled={codeIndex === 0}
                                onClick={() => replace(moveCode(lists, listIndex, codeIndex, -1))}
                              >
                                ↑
                              </Button>
                              <Button
                                variant="ghost"
                                size="sm"
                                aria-label={t('grid.moveDown', { name: row })}
                                disabled={codeIndex === list.codes.length - 1}
                                onClick={() => replace(moveCode(lists, listIndex, codeIndex, 1))}
                              >
                                ↓
                              </Button>
                              <Button
                                variant="ghost"
                                size="sm"
                                aria-label={t('codeLists.removeCode', { name: row })}
                                disabled={list.codes.length <= 1}
                                onClick={() => replace(removeCode(lists, listIndex, codeIndex))}
                              >
                                ✕
                              </Button>
                            </>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              {readOnly ? null : (
                <Button variant="secondary" size="sm" onClick={() => replace(addCode(lists, listIndex))}>
                  {t('codeLists.addCode')}
                </Button>
              )}
            </section>
          );
        })}
      </div>
      {readOnly ? null : (
        <AddKeyForm
          title={t('codeLists.add')}
          hint={t('codeLists.keyHint')}
          takenKeys={lists.map((list) => list.key)}
          onAdd={(key) => replace(addCodeList(lists, newCodeList(key)))}
        />
      )}
    </div>
  );
}
