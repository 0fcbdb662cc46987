import type { StudyDefinition } from '@cdms/study';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { type DesignerEdit, labelIn, type StudySettings } from '../lib/designer-state.ts';
import {
  dateItemsOf,
  parameterValue,
  STATUS_RULES,
  setParameter,
  setStatusRule,
  setStatusRulesOn,
  settingsOf,
  setVisitDateForm,
  toggleUnscheduledForm,
} from '../lib/study-settings-edits.ts';
import styles from './designer.module.css';
import { AddKeyForm } from './element-fields.tsx';
import { ExpressionField } from './expression-field.tsx';
import { Markers } from './markers.tsx';
import { StudyRolesEditor } from './study-roles-editor.tsx';
import { ViewHeader } from './view-header.tsx';

/**
 * The study-wide settings of the design: where each visit's date is recorded (visit windows count from
 * it), the forms an unscheduled visit may hold, the named parameters expressions use, the rules a
 * subject's status follows from their data, and the roles (study-roles-editor.tsx). Every change goes through the page's history.
 */
export function StudySettingsEditor({
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
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const settings = settingsOf(definition);
  const replace = (next: StudySettings, coalesce?: string) => {
    if (!readOnly) onEdit({ type: 'replaceSettings', settings: next, ...(coalesce ? { coalesce } : {}) });
  };
  const formName = (formKey: string) => {
    const form = definition.forms.find((candidate) => candidate.key === formKey);
    return form ? labelIn(form.label, i18n.language) : formKey;
  };
  const visitDateForm = settings.visitDate?.form ?? '';
  const dateItems = visitDateForm ? dateItemsOf(definition, visitDateForm) : [];
  const unscheduled = settings.unscheduledVisit;
  const parameters = Object.entries(settings.parameters ?? {});

  return (
    <div className={styles.formEditor}>
      <ViewHeader title={t('settings.title')} onClose={onClose} />
      <div className={styles.settingsColumns}>
        <section className={styles.properties} aria-labelledby={`${id}-visit-date`}>
          <h3 id={`${id}-visit-date`} className={styles.panelTitle}>
            {t('settings.visitDate.title')}
          </h3>
          <p className={styles.hint}>{t('settings.visitDate.intro')}</p>
          <div className={styles.selectField}>
            <label htmlFor={`${id}-visit-date-form`}>{t('settings.visitDate.form')}</label>
            <select
              id={`${id}-visit-date-form`}
              value={visitDateForm}
              disabled={readOnly}
              onChange={(event) =>
                replace(setVisitDateForm(settings, definition, event.target.value || null))
              }
            >
              <option value="">{t('settings.visitDate.none')}</option>
              {definition.forms.map((form) => (
                <option
                  key={form.key}
                  value={form.key}
                  disabled={dateItemsOf(definition, form.key).length === 0}
                >
                  {formName(form.key)}
                </option>
              ))}
            </select>
          </div>
          {visitDateForm ? (
            <div className={styles.selectField}>
              <label htmlFor={`${id}-visit-date-item`}>{t('settings.visitDate.item')}</label>
              <select
                id={`${id}-visit-date-item`}
                value={settings.visitDate?.item ?? ''}
                disabled={readOnly}
                onChange={(event) =>
                  replace({ ...settings, visitDate: { form: visitDateForm, item: event.target.value } })
                }
              >
                {dateItems.map((item) => (
                  <option key={item.key} value={item.key}>
                    {labelIn(item.label, i18n.language)} ({item.key})
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </section>

        <section className={styles.properties} aria-labelledby={`${id}-unscheduled`}>
          <h3 id={`${id}-unscheduled`} className={styles.panelTitle}>
            {t('settings.unscheduled.title')}
          </h3>
          <p className={styles.hint}>
            {unscheduled ? t('settings.unscheduled.intro') : t('settings.unscheduled.none')}
          </p>
          <fieldset className={styles.checkList}>
            <legend className={styles.visuallyHidden}>{t('settings.unscheduled.forms')}</legend>
            {definition.forms.map((form) => (
              <label key={form.key} className={styles.flag}>
                <input
                  type="checkbox"
                  checked={unscheduled?.forms.includes(form.key) ?? false}
                  disabled={readOnly}
                  onChange={() => replace(toggleUnscheduledForm(settings, definition, form.key))}
                />
                {formName(form.key)}
              </label>
            ))}
          </fieldset>
          {unscheduled ? (
            <>
              {(['ko', 'en'] as const).map((language) => (
                <div key={language} className={styles.selectField}>
                  <label htmlFor={`${id}-unscheduled-${language}`}>
                    {t(language === 'ko' ? 'dialog.labelKo' : 'dialog.labelEn')}
                  </label>
                  <input
                    id={`${id}-unscheduled-${language}`}
                    className={styles.codeInput}
                    lang={language}
                    value={unscheduled.label[language]}
                    readOnly={readOnly}
                    onChange={(event) =>
                      replace(
                        {
                          ...settings,
                          unscheduledVisit: {
                            ...unscheduled,
                            label: { ...unscheduled.label, [language]: event.target.value },
                          },
                        },
                        `unscheduled.${language}`,
                      )
                    }
                  />
                </div>
              ))}
              <Markers label={unscheduled.label} />
            </>
          ) : null}
        </section>

        <section className={styles.properties} aria-labelledby={`${id}-parameters`}>
          <h3 id={`${id}-parameters`} className={styles.panelTitle}>
            {t('settings.parameters.title')}
          </h3>
          <p className={styles.hint}>{t('settings.parameters.intro')}</p>
          {parameters.length === 0 ? (
            <p className={styles.hint}>{t('settings.parameters.none')}</p>
          ) : (
            <table className={styles.codeTable}>
              <caption className={styles.visuallyHidden}>{t('settings.parameters.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('dialog.key')}</th>
                  <th scope="col">{t('settings.parameters.value')}</th>
                  <th scope="col">{t('dialog.labelKo')}</th>
                  <th scope="col">{t('dialog.labelEn')}</th>
                  <th scope="col">
                    <span className={styles.visuallyHidden}>{t('codeLists.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {parameters.map(([key, parameter]) => (
                  <tr key={key}>
                    <th scope="row">
                      <code>{key}</code>
                    </th>
                    <td>
                      <input
                        className={styles.codeInput}
                        aria-label={`${key}: ${t('settings.parameters.value')}`}
                        value={String(parameter.value)}
                        readOnly={readOnly}
                        onChange={(event) =>
                          replace(
                            setParameter(settings, key, {
                              ...parameter,
                              value: parameterValue(event.target.value),
                            }),
                            `parameter.${key}.value`,
                          )
                        }
                      />
                    </td>
                    {(['ko', 'en'] as const).map((language) => (
                      <td key={language}>
                        <input
                          className={styles.codeInput}
                          lang={language}
                          aria-label={`${key}: ${t(language === 'ko' ? 'dialog.labelKo' : 'dialog.labelEn')}`}
                          value={parameter.label[language]}
                          readOnly={readOnly}
                          onChange={(event) =>
                            replace(
                              setParameter(settings, key, {
                                ...parameter,
                                label: { ...parameter.label, [language]: event.target.value },
                              }),
                              `parameter.${key}.${language}`,
                            )
                          }
                        />
                      </td>
                    ))}
                    <td>
                      {readOnly ? null : (
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={t('codeLists.remove', { key })}
                          onClick={() => replace(setParameter(settings, key, null))}
                        >
                          ✕
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {readOnly ? null : (
            <AddKeyForm
              title={t('settings.parameters.add')}
              hint={t('settings.parameters.keyHint')}
              takenKeys={parameters.map(([key]) => key)}
              onAdd={(key) => replace(setParameter(settings, key, { value: 0, label: { ko: key, en: key } }))}
            />
          )}
        </section>

        <section className={styles.properties} aria-labelledby={`${id}-status`}>
          <h3 id={`${id}-status`} className={styles.panelTitle}>
            {t('settings.status.title')}
          </h3>
          <p className={styles.hint}>{t('settings.status.intro')}</p>
          <label className={styles.flag}>
            <input
              type="checkbox"
              checked={settings.subjectStatus !== undefined}
              disabled={readOnly}
              onChange={(event) => replace(setStatusRulesOn(settings, event.target.checked))}
            />
            {t('settings.status.on')}
          </label>
          {settings.subjectStatus
            ? STATUS_RULES.map((rule) => (
                <ExpressionField
                  key={rule}
                  label={t(`settings.status.${rule}`)}
                  hint={t('settings.status.hint')}
                  value={settings.subjectStatus?.[rule]}
                  context={{ definition }}
                  readOnly={readOnly}
                  onChange={(expression) =>
                    replace(setStatusRule(settings, rule, expression), `status.${rule}`)
                  }
                />
              ))
            : null}
        </section>

        <StudyRolesEditor
          definition={definition}
          settings={settings}
          readOnly={readOnly}
          onChange={replace}
        />
      </div>
    </div>
  );
}
