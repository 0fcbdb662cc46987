import type { StudyDefinition } from '@cdms/study';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { labelIn, type StudySettings } from '../lib/designer-state.ts';
import { toggleInOrder } from '../lib/list-edits.ts';
import {
  ROLE_NAMES,
  type RoleChoice,
  type RoleField,
  type RoleName,
  roleChoices,
  roleFields,
  setRoleField,
  setRoleOn,
  setRolePartOn,
} from '../lib/study-roles.ts';
import styles from './designer.module.css';

/**
 * The study roles: which forms and items play a part the application knows (registration, sex and age,
 * adverse events, eligibility…). Each role is turned on and its fields chosen from the study's visits,
 * forms, the chosen form's items (of the types the role reads) and the chosen item's codes; a nested part
 * (the audiogram's treated ear) is turned on inside its role and chosen the same way. A role left
 * incomplete is named among the problems at publish.
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
                <RoleFieldList
                  definition={definition}
                  roles={settings.roles}
                  role={role}
                  fields={roleFields(role)}
                  value={value}
                  readOnly={readOnly}
                  onChange={(next, coalesce) => onChange({ ...settings, roles: next }, coalesce)}
                />
              ) : null}
            </details>
          );
        })}
      </div>
    </section>
  );
}

type Roles = StudySettings['roles'];

/** A field's name on screen, "(optional)" after it when it is. */
function fieldLabel(t: TFunction<'designer'>, field: RoleField): string {
  return `${t(`settings.roles.fields.${field.name}`)}${field.optional ? ` ${t('settings.roles.optional')}` : ''}`;
}

/**
 * The fields of a role, or of a part of it (`part`, `value` being the part's): each chosen from what it may
 * name (`roleChoices`), a part turned on and off with its fields below.
 */
function RoleFieldList({
  definition,
  roles,
  role,
  part,
  fields,
  value,
  readOnly,
  onChange,
}: {
  definition: StudyDefinition;
  roles: Roles;
  role: RoleName;
  part?: string;
  fields: RoleField[];
  value: Record<string, unknown>;
  readOnly: boolean;
  onChange: (roles: Roles, coalesce?: string) => void;
}) {
  return (
    <div className={styles.roleFields}>
      {fields.map((field) =>
        field.kind === 'part' ? (
          <RolePartInput
            key={field.name}
            definition={definition}
            roles={roles}
            role={role}
            field={field}
            value={value[field.name]}
            readOnly={readOnly}
            onChange={onChange}
          />
        ) : (
          <RoleFieldInput
            key={field.name}
            role={role}
            part={part}
            field={field}
            value={value[field.name]}
            choices={roleChoices(definition, value, field)}
            formChosen={typeof value.form === 'string'}
            readOnly={readOnly}
            onChange={(next, coalesce) =>
              onChange(setRoleField(roles, role, field.name, next, part), coalesce)
            }
          />
        ),
      )}
    </div>
  );
}

/** A nested part of a role (the audiogram's treated ear): on or off, and its own fields when on. */
function RolePartInput({
  definition,
  roles,
  role,
  field,
  value,
  readOnly,
  onChange,
}: {
  definition: StudyDefinition;
  roles: Roles;
  role: RoleName;
  field: RoleField;
  value: unknown;
  readOnly: boolean;
  onChange: (roles: Roles, coalesce?: string) => void;
}) {
  const { t } = useTranslation('designer');
  const on = typeof value === 'object' && value !== null;
  return (
    <fieldset className={styles.rolePart}>
      <legend>{fieldLabel(t, field)}</legend>
      <p className={styles.hint}>{t(`settings.roles.parts.${field.name}.about`)}</p>
      <label className={styles.flag}>
        <input
          type="checkbox"
          checked={on}
          disabled={readOnly}
          onChange={(event) => onChange(setRolePartOn(roles, role, field.name, event.target.checked))}
        />
        {t(`settings.roles.parts.${field.name}.on`)}
      </label>
      {on ? (
        <RoleFieldList
          definition={definition}
          roles={roles}
          role={role}
          part={field.name}
          fields={field.fields ?? []}
          value={value as Record<string, unknown>}
          readOnly={readOnly}
          onChange={onChange}
        />
      ) : null}
    </fieldset>
  );
}

/**
 * One field: a code typed when its item has no list to choose from, items ticked, anything else chosen.
 * A key kept from before that is not among the choices (another type, gone from the form) stays shown,
 * so it can be seen and changed.
 */
function RoleFieldInput({
  role,
  part,
  field,
  value,
  choices,
  formChosen,
  readOnly,
  onChange,
}: {
  role: RoleName;
  part: string | undefined;
  field: RoleField;
  value: unknown;
  choices: RoleChoice[];
  formChosen: boolean;
  readOnly: boolean;
  onChange: (value: string | string[] | undefined, coalesce?: string) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const label = fieldLabel(t, field);
  const name = (choice: RoleChoice) => `${labelIn(choice.label, i18n.language)} (${choice.key})`;
  const kept = (key: string) => t('settings.roles.notAChoice', { key });

  if (field.kind === 'code' && choices.length === 0)
    return (
      <div className={styles.selectField}>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className={styles.codeInput}
          value={typeof value === 'string' ? value : ''}
          readOnly={readOnly}
          onChange={(event) =>
            onChange(event.target.value, ['role', role, part, field.name].filter(Boolean).join('.'))
          }
        />
      </div>
    );
  if (field.kind === 'items') {
    const chosen = Array.isArray(value) ? (value as string[]) : [];
    const order = [...new Set([...choices.map((choice) => choice.key), ...chosen])];
    return (
      <fieldset className={styles.checkList}>
        <legend>{label}</legend>
        {order.map((key) => {
          const choice = choices.find((candidate) => candidate.key === key);
          return (
            <label key={key} className={styles.flag}>
              <input
                type="checkbox"
                checked={chosen.includes(key)}
                disabled={readOnly}
                onChange={() => onChange(toggleInOrder(chosen, key, order))}
              />
              {choice ? name(choice) : kept(key)}
            </label>
          );
        })}
      </fieldset>
    );
  }
  const current = typeof value === 'string' ? value : '';
  return (
    <div className={styles.selectField}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={current}
        disabled={readOnly || (field.kind !== 'visit' && field.kind !== 'form' && !formChosen)}
        onChange={(event) => onChange(event.target.value || undefined)}
      >
        <option value="">{t('settings.roles.choose')}</option>
        {current !== '' && !choices.some((choice) => choice.key === current) ? (
          <option value={current}>{kept(current)}</option>
        ) : null}
        {choices.map((choice) => (
          <option key={choice.key} value={choice.key}>
            {name(choice)}
          </option>
        ))}
      </select>
    </div>
  );
}
