import { type AdminUser, type Role, roles } from '@cdms/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import listStyles from '../../../components/list-page.module.css';
import { roleNeedsSites } from '../lib/membership-sites.ts';
import styles from './admin-ui.module.css';

/** A participating site as the new-study form holds it; `key` keeps React's rows apart. */
export interface SiteDraft {
  key: number;
  code: string;
  name: string;
  institutionNumber: string;
}

/** A first member as the new-study form holds it: an account's email, a role, the codes of its sites. */
export interface MemberDraft {
  key: number;
  email: string;
  role: Role;
  siteCodes: string[];
}

/** A key no row of the list has. */
function nextKey(rows: readonly { key: number }[]): number {
  return Math.max(0, ...rows.map((row) => row.key)) + 1;
}

/** Errors by request path (`sites.0.code`), as `pathErrorKeys` gives them: keys of the admin namespace. */
type PathErrors = Record<string, string | undefined>;

function RowErrors({ errors, prefix }: { errors: PathErrors; prefix: string }) {
  const { t } = useTranslation('admin');
  const messages = [
    ...new Set(
      Object.entries(errors)
        .filter(([path, key]) => key && (path === prefix || path.startsWith(`${prefix}.`)))
        .map(([, key]) => t(key as string)),
    ),
  ];
  if (messages.length === 0) return null;
  return <p className={styles.fieldError}>{messages.join(' ')}</p>;
}

/**
 * A list of draft rows in the new-study form: its legend and hint, the rows (each its line of inputs
 * ending in a remove button, what goes below the line, and the server's errors about it) and the add
 * button, which appends a blank row under a new key.
 */
function DraftRows<Row extends { key: number }>({
  legend,
  hint,
  rows,
  header,
  rowClassName,
  lineClassName,
  line,
  below,
  removeLabel,
  errors,
  errorPrefix,
  addLabel,
  blank,
  onChange,
}: {
  legend: string;
  hint: string;
  rows: Row[];
  /** Above the rows, while there are any. */
  header?: ReactNode;
  rowClassName?: string | undefined;
  lineClassName: string | undefined;
  /** The row's inputs (`n` counts from 1), before its remove button. */
  line: (row: Row, n: number, index: number) => ReactNode;
  below?: (row: Row, n: number) => ReactNode;
  removeLabel: (n: number) => string;
  errors: PathErrors;
  /** The rows' request path (`sites`): errors of `sites.0…` stand under the first row. */
  errorPrefix: string;
  addLabel: string;
  blank: Omit<Row, 'key'>;
  onChange: (rows: Row[]) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <fieldset className={styles.field}>
      <legend className={styles.label}>{legend}</legend>
      <p className={styles.hint}>{hint}</p>
      {rows.length > 0 && (
        <div className={styles.draftRows}>
          {header}
          {rows.map((row, index) => {
            const n = index + 1;
            return (
              <div key={row.key} className={rowClassName}>
                <div className={lineClassName}>
                  {line(row, n, index)}
                  <button
                    type="button"
                    className={`${styles.button} ${styles.small}`}
                    aria-label={removeLabel(n)}
                    onClick={() => onChange(rows.filter((other) => other.key !== row.key))}
                  >
                    {t('studies.form.remove')}
                  </button>
                </div>
                {below?.(row, n)}
                <RowErrors errors={errors} prefix={`${errorPrefix}.${index}`} />
              </div>
            );
          })}
        </div>
      )}
      <div>
        <button
          type="button"
          className={`${styles.button} ${styles.small}`}
          onClick={() => onChange([...rows, { ...blank, key: nextKey(rows) } as Row])}
        >
          {addLabel}
        </button>
      </div>
    </fieldset>
  );
}

/** A site row's inputs in order, each with its label (numbered by row) and the contract's length limit. */
const SITE_FIELDS = [
  { name: 'code', label: 'studies.form.siteCodeOf', maxLength: 20 },
  { name: 'name', label: 'studies.form.siteNameOf', maxLength: 100 },
  { name: 'institutionNumber', label: 'studies.form.siteInstitutionOf', maxLength: 2 },
] as const;

/** The participating sites of a new study: code, name and institution number per row. */
export function SiteRows({
  sites,
  errors,
  onChange,
}: {
  sites: SiteDraft[];
  errors: PathErrors;
  onChange: (sites: SiteDraft[]) => void;
}) {
  const { t } = useTranslation('admin');
  const update = (key: number, change: Partial<SiteDraft>) =>
    onChange(sites.map((site) => (site.key === key ? { ...site, ...change } : site)));
  return (
    <DraftRows
      legend={t('studies.form.sites')}
      hint={t('studies.form.sitesHint')}
      rows={sites}
      header={
        <div className={`${styles.draftSiteRow} ${styles.draftHeader}`} aria-hidden>
          <span>{t('studies.form.siteCode')}</span>
          <span>{t('studies.form.siteName')}</span>
          <span>{t('studies.form.siteInstitution')}</span>
          {/* As wide as the rows' remove button, so the columns line up with the inputs below. */}
          <span className={styles.draftHeaderSpacer}>{t('studies.form.remove')}</span>
        </div>
      }
      lineClassName={styles.draftSiteRow}
      line={(site, n, index) =>
        SITE_FIELDS.map((field) => (
          <input
            key={field.name}
            className={styles.input}
            aria-label={t(field.label, { n })}
            aria-invalid={Boolean(errors[`sites.${index}.${field.name}`])}
            value={site[field.name]}
            maxLength={field.maxLength}
            inputMode={field.name === 'institutionNumber' ? 'numeric' : undefined}
            autoComplete="off"
            onChange={(event) => update(site.key, { [field.name]: event.target.value })}
          />
        ))
      }
      removeLabel={(n) => t('studies.form.removeSiteOf', { n })}
      errors={errors}
      errorPrefix="sites"
      addLabel={t('studies.form.addSite')}
      blank={{ code: '', name: '', institutionNumber: '' }}
      onChange={onChange}
    />
  );
}

/** The first members of a new study: an active account, a role and, for site roles, listed sites. */
export function MemberRows({
  members,
  users,
  siteCodes,
  errors,
  onChange,
}: {
  members: MemberDraft[];
  users: readonly AdminUser[];
  /** The codes of the sites listed above, the only ones a member can be given. */
  siteCodes: readonly string[];
  errors: PathErrors;
  onChange: (members: MemberDraft[]) => void;
}) {
  const { t } = useTranslation('admin');
  const update = (key: number, change: Partial<MemberDraft>) =>
    onChange(members.map((member) => (member.key === key ? { ...member, ...change } : member)));
  // Deactivated accounts cannot log in: a role for one would be of no use.
  const activeUsers = users.filter((user) => user.active).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <DraftRows
      legend={t('studies.form.members')}
      hint={t('studies.form.membersHint')}
      rows={members}
      rowClassName={styles.draftMember}
      lineClassName={styles.draftMemberRow}
      line={(member, n, index) => (
        <>
          <select
            className={styles.select}
            aria-label={t('studies.form.memberUserOf', { n })}
            aria-invalid={Boolean(errors[`members.${index}.email`])}
            value={member.email}
            onChange={(event) => update(member.key, { email: event.target.value })}
          >
            <option value="">{t('studies.form.chooseUser')}</option>
            {activeUsers.map((user) => (
              <option key={user.id} value={user.email}>
                {user.name} ({user.email})
              </option>
            ))}
          </select>
          <select
            className={styles.select}
            aria-label={t('studies.form.memberRoleOf', { n })}
            value={member.role}
            onChange={(event) => update(member.key, { role: event.target.value as Role })}
          >
            {roles.map((role) => (
              <option key={role} value={role}>
                {t(`roles.${role}`)}
              </option>
            ))}
          </select>
        </>
      )}
      below={(member, n) =>
        roleNeedsSites(member.role) &&
        (siteCodes.length === 0 ? (
          <p className={styles.hint}>{t('studies.form.noSitesListed')}</p>
        ) : (
          <fieldset className={styles.draftMemberSites}>
            <legend className={listStyles.visuallyHidden}>{t('studies.form.memberSitesOf', { n })}</legend>
            {siteCodes.map((code) => (
              <label key={code} className={styles.checkboxLabel}>
                <input
                  type="checkbox"
                  checked={member.siteCodes.includes(code)}
                  onChange={(event) =>
                    update(member.key, {
                      siteCodes: event.target.checked
                        ? [...member.siteCodes, code]
                        : member.siteCodes.filter((other) => other !== code),
                    })
                  }
                />
                {code}
              </label>
            ))}
          </fieldset>
        ))
      }
      removeLabel={(n) => t('studies.form.removeMemberOf', { n })}
      errors={errors}
      errorPrefix="members"
      addLabel={t('studies.form.addMember')}
      blank={{ email: '', role: 'CRC', siteCodes: [] }}
      onChange={onChange}
    />
  );
}
