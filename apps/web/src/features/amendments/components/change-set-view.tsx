import type { AmendmentChangeSet, AmendmentQuestion } from '@cdms/contract';
import type { AmendmentDeclarations } from '@cdms/study';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import {
  answerCodeMapping,
  answerConversion,
  answerRenameOrReplace,
  type RenameOrReplace,
} from '../lib/declarations.ts';
import styles from './amendments.module.css';

/**
 * A draft's change set against the live version: whether it can be published, then what it still asks
 * (each question answered in place), what it refuses, and what happens to the stored data. Without a
 * change set the draft is not a valid definition yet, and the designer shows why.
 */
export function ChangeSetView({
  changeSet,
  definitionProblems,
  declarations,
  designerPath,
  pending,
  onDeclare,
}: {
  changeSet: AmendmentChangeSet | null;
  definitionProblems: number;
  declarations: AmendmentDeclarations;
  designerPath: string;
  /** A declaration is being sent: the answers wait. */
  pending: boolean;
  onDeclare: (next: AmendmentDeclarations) => void;
}) {
  const { t } = useTranslation('amendments');
  const id = useId();

  return (
    <section className={`${listStyles.card} ${styles.section}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {t('changeSet.title')}
      </h2>
      {changeSet === null ? (
        <div className={styles.notReady} role="status">
          <p className={styles.readiness}>
            {t('changeSet.invalidDefinition', { count: definitionProblems })}
          </p>
          <Link className={listStyles.rowLink} to={designerPath}>
            {t('links.fixInDesigner')}
          </Link>
        </div>
      ) : (
        <>
          <div className={changeSet.ready ? styles.ready : styles.notReady} role="status">
            <p className={styles.readiness}>
              {changeSet.ready ? t('changeSet.ready') : t('changeSet.notReady')}
            </p>
            {changeSet.ready ? null : (
              <p>
                {t('changeSet.counts', {
                  questions: changeSet.questions.length,
                  refusals: changeSet.refusals.length,
                })}
              </p>
            )}
          </div>
          {changeSet.questions.length > 0 ? (
            <div className={styles.block}>
              <h3 className={styles.blockTitle}>
                {t('changeSet.questions', { count: changeSet.questions.length })}
              </h3>
              <ul className={styles.lines}>
                {changeSet.questions.map((question) => (
                  <li key={`${question.code} ${question.element}`} className={styles.question}>
                    <LineText text={question.text} element={question.element} />
                    <QuestionAnswer
                      question={question}
                      declarations={declarations}
                      pending={pending}
                      onDeclare={onDeclare}
                    />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {changeSet.refusals.length > 0 ? (
            <div className={styles.block}>
              <h3 className={styles.blockTitle}>
                {t('changeSet.refusals', { count: changeSet.refusals.length })}
              </h3>
              <ul className={styles.lines}>
                {changeSet.refusals.map((refusal) => (
                  <li key={`${refusal.code} ${refusal.element}`} className={styles.refusal}>
                    <LineText text={refusal.text} element={refusal.element} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className={styles.block}>
            <h3 className={styles.blockTitle}>
              {t('changeSet.changes', { count: changeSet.changes.length })}
            </h3>
            {changeSet.changes.length === 0 ? (
              <p className={styles.hint}>{t('changeSet.noChanges')}</p>
            ) : (
              <ul className={styles.lines}>
                {changeSet.changes.map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: an element can change in two ways; the lines are read again whole
                  <li key={index} className={styles.change}>
                    <LineText text={line.text} element={line.element} />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** A line's words, and the element it is about as a small key (`form:DM/item:AGE`). */
function LineText({ text, element }: { text: string; element: string }) {
  return (
    <span className={styles.lineText}>
      <span>{text}</span>
      <code className={styles.element}>{element}</code>
    </span>
  );
}

/** The answer controls of one question; each answer is a declaration added to the set. */
function QuestionAnswer({
  question,
  declarations,
  pending,
  onDeclare,
}: {
  question: AmendmentQuestion;
  declarations: AmendmentDeclarations;
  pending: boolean;
  onDeclare: (next: AmendmentDeclarations) => void;
}) {
  const { t } = useTranslation('amendments');
  switch (question.code) {
    case 'formRenameOrReplace':
    case 'itemRenameOrReplace': {
      const answer = (choice: RenameOrReplace) =>
        onDeclare(answerRenameOrReplace(declarations, question, choice));
      return (
        <div className={styles.answers}>
          <Button size="sm" variant="secondary" disabled={pending} onClick={() => answer('rename')}>
            {t('answers.rename')}
          </Button>
          <Button size="sm" variant="secondary" disabled={pending} onClick={() => answer('replace')}>
            {t('answers.replace')}
          </Button>
        </div>
      );
    }
    case 'codesNeedMapping':
      return (
        <CodeMappingAnswer
          question={question}
          declarations={declarations}
          pending={pending}
          onDeclare={onDeclare}
        />
      );
    case 'conversionNeeded':
      return (
        <div className={styles.answers}>
          <Button
            size="sm"
            variant="secondary"
            disabled={pending}
            onClick={() => onDeclare(answerConversion(declarations, question))}
          >
            {t('answers.convert', { to: question.to })}
          </Button>
        </div>
      );
  }
}

/** Per removed code, the next version's code it becomes; "Map" declares the codes chosen so far. */
function CodeMappingAnswer({
  question,
  declarations,
  pending,
  onDeclare,
}: {
  question: Extract<AmendmentQuestion, { code: 'codesNeedMapping' }>;
  declarations: AmendmentDeclarations;
  pending: boolean;
  onDeclare: (next: AmendmentDeclarations) => void;
}) {
  const { t } = useTranslation('amendments');
  const id = useId();
  const [map, setMap] = useState<Record<string, string>>({});
  const chosen = Object.fromEntries(Object.entries(map).filter(([, next]) => next !== ''));
  return (
    <div className={styles.mapping}>
      {question.codes.map((code) => (
        <div key={code} className={styles.mappingRow}>
          <label htmlFor={`${id}-${code}`}>{t('answers.codeBecomes', { code })}</label>
          <select
            id={`${id}-${code}`}
            className={listStyles.select}
            value={map[code] ?? ''}
            onChange={(event) => setMap((current) => ({ ...current, [code]: event.target.value }))}
          >
            <option value="">{t('answers.chooseCode')}</option>
            {question.nextCodes.map((next) => (
              <option key={next} value={next}>
                {next}
              </option>
            ))}
          </select>
        </div>
      ))}
      <div className={styles.answers}>
        <Button
          size="sm"
          variant="secondary"
          disabled={pending || Object.keys(chosen).length === 0}
          onClick={() => onDeclare(answerCodeMapping(declarations, question.codeList, chosen))}
        >
          {t('answers.map')}
        </Button>
      </div>
    </div>
  );
}
