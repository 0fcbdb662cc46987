import type { StudyDefinition } from '@cdms/study';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { labelIn, type StudySettings } from '../lib/designer-state.ts';
import { toggleInOrder } from '../lib/list-edits.ts';
import {
  ROLE_NAMES,
  type RoleField,
  type RoleName,
  roleChoices,
  roleFields,
  setRoleField,
  setRoleOn,
} from '../lib/study-roles.ts';
import styles from './designer.module.css';

/**
 * The study roles: which forms and items play a part the application knows (registration, sex and age,
 * adverse events, eligibility…). Each role is turned on and its fields chosen from the study's visits,
 * forms and the chosen form's items; a role left incomplete is named among the problems at publish.
 */
export function StudyRolesEditor({
  definition,
  settings,
  readOnly,
  onChange,
}: {
  definition: StudyDefinition;
  settings: StudySettings;
  readOnly: boolean;
  onChange: (settings: StudySettings, coalesce?: string) => void;
}) {
  const { t } = useTranslation('designer');
  const id = useId();
  const roles = (settings.roles ?? {}) as Partial<Record<RoleName, Record<string, unknown>>>;

  return (
    <section className={`${styles.properties} ${styles.settingsWide}`} aria-labelledby={`${id}-roles`}>
      <h3 id={`${id}-roles`} className={styles.panelTitle}>
        {t('settings.roles.title')}
      </h3>
      <p className={styles.hint}>{t('settings.roles.intro')}</p>
      <div className={styles.roleList}>
        {ROLE_NAMES.map((role) => {
          const value = roles[role];
          return (
            <details key={role} className={styles.role} open={value !== undefined || undefined}>
              <summary>
                <strong>{t(`settings.roles.names.${role}`)}</strong>{' '}
                <span className={styles.headerMeta}>
                  {value ? t('settings.roles.used') : t('settings.roles.unused')}
                </span>
              </summary>
              <p className={styles.hint}>{t(`settings.roles.about.${role}`)}</p>
              <label className={styles.flag}>
                <input
                  type="checkbox"
                  checked={value !== undefined}
                  disabled={readOnly}
                  onChange={(event) =>
                    onChange({ ...settings, roles: setRoleOn(settings.roles, role, event.target.checked) })
                  }
                />
                {t('settings.roles.on', { role: t(`settings.roles.names.${role}`) })}
              </label>
              {value ? (
                <div className={styles.roleFields}>
                  {roleFields(role).map((field) => (
                    <RoleFieldInput
                      key={field.name}
                      definition={definition}
                      role={role}
                      field={field}
                      value={value[field.name]}
                      formKey={typeof value.form === 'string' ? value.form : undefined}
                      readOnly={readOnly}
                      onChange={(next, coalesce) =>
                        onChange(
                          { ...settings, roles: setRoleField(settings.roles, role, field.name, next) },
                          coalesce,
                        )
                      }
                    />
                  ))}
                </div>
              ) : null}
            </details>
          );
        })}
      </div>
    </section>
  );
}

function RoleFieldInput({
  definition,
  role,
  field,
  value,
  formKey,
  readOnly,
  onChange,
}: {
  definition: StudyDefinition;
  role: RoleName;
  field: RoleField;
  value: unknown;
  formKey: string | undefined;
  readOnly: boolean;
  onChange: (value: string | string[] | undefined, coalesce?: string) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const label = `${t(`settings.roles.fields.${field.name}`)}${field.optional ? ` ${t('settings.roles.optional')}` : ''}`;
  const choices = roleChoices(definition, formKey, field.kind);
  const name = (choice: (typeof choices)[number]) =>
    `${labelIn(choice.label, i18n.language)} (${choice.key})`;

  if (field.kind === 'code')
    return (
      <div className={styles.selectField}>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className={styles.codeInput}
          value={typeof value === 'string' ? value : ''}
          readOnly={readOnly}
          onChange={(event) => onChange(event.target.value, `role.${role}.${field.name}`)}
        />
      </div>
    );
  if (field.kind === 'items') {
    const chosen = Array.isArray(value) ? (value as string[]) : [];
    return (
      <fieldset className={styles.checkList}>
        <legend>{label}</legend>
        {choices.map((choice) => (
          <label key={choice.key} className={styles.flag}>
            <input
              type="checkbox"
              checked={chosen.includes(choice.key)}
              disabled={readOnly}
              onChange={() =>
                onChange(
                  toggleInOrder(
                    chosen,
                    choice.key,
                    choices.map((other) => other.key),
                  ),
                )
              }
            />
            {name(choice)}
          </label>
        ))}
      </fieldset>
    );
  }
  return (
    <div className={styles.selectField}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={typeof value === 'string' ? value : ''}
        disabled={readOnly || (field.kind !== 'visit' && field.kind !== 'form' && formKey === undefined)}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">{t('settings.roles.choose')}</option>
        {choices.map((choice) => (
          <option key={choice.key} value={choice.key}>
            {name(choice)}
          </option>
        ))}
      </select>
    </div>
  );
}
