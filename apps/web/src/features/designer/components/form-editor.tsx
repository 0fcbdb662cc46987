import {
  type FormDefinition,
  ITEM_TYPES,
  type ItemDefinition,
  type ItemType,
  type LocalizedText,
  type StudyDefinition,
} from '@cdms/study';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import { type DesignerEdit, labelIn } from '../lib/designer-state.ts';
import {
  addItem,
  addSection,
  formFromLayout,
  formInLayout,
  type ItemPlace,
  keysOfForm,
  moveItem,
  moveItemTo,
  moveSection,
  newItem,
  placeAfterMove,
  removeItem,
  removeSection,
  updateItem,
  updateSection,
} from '../lib/form-edits.ts';
import { DesignPreview } from './design-preview.tsx';
import styles from './designer.module.css';
import { DragGrip } from './drag-grip.tsx';
import {
  type ElementFieldProblems,
  ElementFields,
  type ElementFieldValues,
  elementFieldProblems,
} from './element-fields.tsx';
import { FormLayouts } from './form-layouts.tsx';
import { FormOutcomes } from './form-outcomes.tsx';
import { ItemChecks } from './item-checks.tsx';
import { ItemProperties } from './item-properties.tsx';
import { Markers } from './markers.tsx';
import { SectionProperties } from './section-properties.tsx';
import { useDragReorder } from './use-drag-reorder.ts';
import { ViewHeader } from './view-header.tsx';

/** What the properties column shows. */
type Shown =
  | { kind: 'item'; place: ItemPlace }
  | { kind: 'section'; index: number }
  | { kind: 'outcomes' }
  | null;

/**
 * One form's editor: its sections and items in order (select, add, reorder, remove), the selected
 * item's properties, and the live preview of the form as data entry will draw it. Every change goes
 * through the designer's history (`replaceForm`), so undo, redo and save work as on the schedule.
 */
export function FormEditor({
  definition,
  formIndex,
  readOnly,
  onEdit,
  onClose,
}: {
  definition: StudyDefinition;
  formIndex: number;
  readOnly: boolean;
  onEdit: (edit: DesignerEdit) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const { confirm } = useAlert();
  const wholeForm = definition.forms[formIndex];
  // The layout edited: the default sections (null) or a visit variant's. Below, `form` is that layout
  // seen as the form, and every edit of it is put back in its place (`formFromLayout`).
  const [layout, setLayout] = useState<number | null>(null);
  const form = wholeForm && formInLayout(wholeForm, wholeForm.variants?.[layout ?? -1] ? layout : null);
  // What the properties column shows: one item's, one section's, or the form's routing outcomes.
  const [shown, setShown] = useState<Shown>(() =>
    form?.sections[0]?.items[0] ? { kind: 'item', place: { sectionIndex: 0, itemIndex: 0 } } : null,
  );
  const replaceWhole = (next: FormDefinition, coalesce?: string) => {
    if (!readOnly)
      onEdit({ type: 'replaceForm', index: formIndex, form: next, ...(coalesce ? { coalesce } : {}) });
  };
  const replace = (next: FormDefinition, coalesce?: string) => {
    if (wholeForm && form && next !== form) replaceWhole(formFromLayout(wholeForm, layout, next), coalesce);
  };
  function chooseLayout(next: number | null) {
    setLayout(next);
    setShown(null);
  }
  // Sections and items move by mouse too: a grip dropped on another section's header, or on an item
  // (it takes that place) or a section (it goes last in it). The moved item stays chosen.
  const sectionDrag = useDragReorder<number>({
    samePlace: (a, b) => a === b,
    onDrop: (from, to) => moveSectionTo(from, to),
  });
  const itemDrag = useDragReorder<ItemPlace>({
    samePlace: (a, b) => a.sectionIndex === b.sectionIndex && a.itemIndex === b.itemIndex,
    onDrop: (from, to) => {
      if (!form) return;
      const moved = moveItemTo(form, from, to);
      if (moved === form) return;
      replace(moved);
      const last = (form.sections[to.sectionIndex]?.items.length ?? 1) - 1;
      selectItem(
        from.sectionIndex === to.sectionIndex ? { ...to, itemIndex: Math.min(to.itemIndex, last) } : to,
      );
    },
  });
  if (!form) return null;
  const name = (label: LocalizedText) => labelIn(label, i18n.language);
  const selectItem = (place: ItemPlace | null) => setShown(place ? { kind: 'item', place } : null);
  const selected = shown?.kind === 'item' ? shown.place : null;
  const selectedSection = selected ? form.sections[selected.sectionIndex] : undefined;
  const selectedItem = selected ? selectedSection?.items[selected.itemIndex] : undefined;
  const openSection = shown?.kind === 'section' ? shown.index : null;
  const sectionShown = openSection === null ? undefined : form.sections[openSection];
  const outcomesShown = shown?.kind === 'outcomes';

  /** A section moved: what was chosen by its place would now be another's, so nothing stays chosen. */
  function moveSectionTo(sectionIndex: number, to: number) {
    if (!form) return;
    replace(moveSection(form, sectionIndex, to));
    selectItem(null);
  }

  async function confirmRemoveItem(place: ItemPlace) {
    const item = form?.sections[place.sectionIndex]?.items[place.itemIndex];
    if (!form || !item) return;
    const confirmed = await confirm({
      title: t('form.removeItem'),
      message: t('form.removeItemText', { item: `${name(item.label)} (${item.key})` }),
      confirmLabel: t('remove.confirm'),
      cancelLabel: t('remove.cancel'),
    });
    if (!confirmed) return;
    replace(removeItem(form, place));
    selectItem(null);
  }

  return (
    <div className={styles.formEditor}>
      <ViewHeader
        title={
          <>
            {name(form.label)} <span className={styles.headerMeta}>{t('grid.key', { key: form.key })}</span>
          </>
        }
        onClose={onClose}
      />
      {wholeForm ? (
        <FormLayouts
          definition={definition}
          form={wholeForm}
          layout={layout}
          readOnly={readOnly}
          onChoose={chooseLayout}
          onChange={replaceWhole}
        />
      ) : null}
      <div className={styles.formEditorColumns}>
        <nav className={styles.outline} aria-label={t('form.outline')}>
          <button
            type="button"
            className={styles.outlineItem}
            aria-pressed={outcomesShown}
            onClick={() => {
              setShown({ kind: 'outcomes' });
            }}
          >
            <span>{t('outcomes.open')}</span>
            <span className={styles.headerMeta}>{(form.outcomes ?? []).length}</span>
          </button>
          {form.sections.map((section, sectionIndex) => (
            <section
              key={section.key}
              className={styles.outlineSection}
              {...(readOnly ? {} : itemDrag.dropProps({ sectionIndex, itemIndex: section.items.length }))}
            >
              <div
                className={styles.outlineSectionHeader}
                {...(readOnly ? {} : sectionDrag.dropProps(sectionIndex))}
              >
                {readOnly ? null : (
                  <DragGrip title={t('grid.drag')} {...sectionDrag.dragProps(sectionIndex)} />
                )}
                <h3 className={styles.outlineSectionTitle}>
                  <button
                    type="button"
                    className={styles.outlineSectionButton}
                    aria-pressed={openSection === sectionIndex}
                    title={t('section.edit', { name: name(section.label) })}
                    onClick={() => {
                      setShown({ kind: 'section', index: sectionIndex });
                    }}
                  >
                    {name(section.label)}
                    <span className={styles.headerMeta}> {t('grid.key', { key: section.key })}</span>
                    {section.repeating ? (
                      <span className={styles.headerMeta}> · {t('form.repeating')}</span>
                    ) : null}
                  </button>
                  <Markers label={section.label} />
                </h3>
                {readOnly ? null : (
                  <span className={styles.headerActions}>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t('grid.moveUp', { name: name(section.label) })}
                      disabled={sectionIndex === 0}
                      onClick={() => moveSectionTo(sectionIndex, sectionIndex - 1)}
                    >
                      ↑
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t('grid.moveDown', { name: name(section.label) })}
                      disabled={sectionIndex === form.sections.length - 1}
                      onClick={() => moveSectionTo(sectionIndex, sectionIndex + 1)}
                    >
                      ↓
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t('form.removeSection', { name: name(section.label) })}
                      disabled={form.sections.length <= 1 || section.items.length > 0}
                      title={section.items.length > 0 ? t('form.removeSectionHint') : undefined}
                      onClick={() => {
                        replace(removeSection(form, sectionIndex));
                        selectItem(null);
                      }}
                    >
                      ✕
                    </Button>
                  </span>
                )}
              </div>
              {section.items.length === 0 ? <p className={styles.hint}>{t('form.emptySection')}</p> : null}
              <ul className={styles.outlineItems}>
                {section.items.map((item, itemIndex) => {
                  const isSelected =
                    selected?.sectionIndex === sectionIndex && selected.itemIndex === itemIndex;
                  return (
                    <li
                      key={item.key}
                      className={styles.outlineRow}
                      {...(readOnly ? {} : itemDrag.dropProps({ sectionIndex, itemIndex }))}
                    >
                      {readOnly ? null : (
                        <DragGrip
                          title={t('grid.drag')}
                          {...itemDrag.dragProps({ sectionIndex, itemIndex })}
                        />
                      )}
                      <button
                        type="button"
                        className={styles.outlineItem}
                        aria-pressed={isSelected}
                        onClick={() => selectItem({ sectionIndex, itemIndex })}
                      >
                        <span>{name(item.label) || item.key}</span>
                        <span className={styles.headerMeta}>
                          {item.key} · {t(`form.types.${item.type}`)}
                          {item.required ? ` · ${t('form.requiredShort')}` : ''}
                          {item.derive ? ` · ${t('form.derivedShort')}` : ''}
                          {item.showWhen ? ` · ${t('form.conditionalShort')}` : ''}
                        </span>
                        <Markers label={item.label} />
                      </button>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
          {readOnly ? null : (
            <>
              <AddItemForm
                form={form}
                codeListKeys={definition.codeLists.map((list) => list.key)}
                onAdd={(sectionIndex, item) => {
                  replace(addItem(form, sectionIndex, item));
                  selectItem({ sectionIndex, itemIndex: form.sections[sectionIndex]?.items.length ?? 0 });
                }}
              />
              <AddSectionForm
                takenKeys={form.sections.map((section) => section.key)}
                onAdd={(section) => replace(addSection(form, { ...section, items: [] }))}
              />
            </>
          )}
        </nav>
        <div className={styles.propertiesColumn}>
          {outcomesShown ? (
            <FormOutcomes definition={definition} form={form} readOnly={readOnly} onChange={replace} />
          ) : null}
          {sectionShown && openSection !== null ? (
            <SectionProperties
              key={sectionShown.key}
              definition={definition}
              form={form}
              section={sectionShown}
              readOnly={readOnly}
              onChange={(section, coalesce) =>
                replace(
                  updateSection(form, openSection, () => section),
                  coalesce,
                )
              }
            />
          ) : null}
          {selected && selectedItem && selectedSection ? (
            <ItemProperties
              key={`${selectedSection.key}/${selectedItem.key}`}
              definition={definition}
              formKey={form.key}
              item={selectedItem}
              placeName={`${form.key}/${selectedSection.key}/${selectedItem.key}`}
              readOnly={readOnly}
              onChange={(item, coalesce) => replace(updateItem(form, selected, item), coalesce)}
              onMove={(by) => {
                replace(moveItem(form, selected, by));
                selectItem(placeAfterMove(form, selected, by));
              }}
              onRemove={() => void confirmRemoveItem(selected)}
            />
          ) : null}
          {selected && selectedItem && selectedSection ? (
            <ItemChecks
              definition={definition}
              form={form}
              itemKey={selectedItem.key}
              readOnly={readOnly}
              onChange={replace}
            />
          ) : sectionShown || outcomesShown ? null : (
            <p className={styles.hint}>{t('form.chooseItem')}</p>
          )}
        </div>
        <DesignPreview definition={definition} formKey={form.key} />
      </div>
    </div>
  );
}

const noValues = (): ElementFieldValues => ({ key: '', label: { ko: '', en: '' } });

function AddItemForm({
  form,
  codeListKeys,
  onAdd,
}: {
  form: FormDefinition;
  codeListKeys: readonly string[];
  onAdd: (sectionIndex: number, item: ItemDefinition) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const [sectionIndex, setSectionIndex] = useState(form.sections.length - 1);
  const [type, setType] = useState<ItemType>('text');
  const [values, setValues] = useState(noValues);
  const [problems, setProblems] = useState<ElementFieldProblems>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = elementFieldProblems(values, keysOfForm(form), t);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const section = Math.min(sectionIndex, form.sections.length - 1);
    onAdd(section, newItem(type, values.key, values.label, codeListKeys));
    setValues(noValues());
  }

  return (
    <form className={styles.addForm} onSubmit={submit} noValidate aria-label={t('form.addItem')}>
      <h3 className={styles.outlineSectionTitle}>{t('form.addItem')}</h3>
      <div className={styles.addFormRow}>
        <label className={styles.selectField} htmlFor={`${id}-section`}>
          <span className={styles.propertyLabel}>{t('form.section')}</span>
          <select
            id={`${id}-section`}
            value={sectionIndex}
            onChange={(event) => setSectionIndex(Number(event.target.value))}
          >
            {form.sections.map((section, index) => (
              <option key={section.key} value={index}>
                {labelIn(section.label, i18n.language)}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.selectField} htmlFor={`${id}-type`}>
          <span className={styles.propertyLabel}>{t('form.type')}</span>
          <select
            id={`${id}-type`}
            value={type}
            onChange={(event) => setType(event.target.value as ItemType)}
          >
            {ITEM_TYPES.map((itemType) => (
              <option key={itemType} value={itemType}>
                {t(`form.types.${itemType}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ElementFields values={values} onChange={setValues} problems={problems} keyEditable autoFocus={false} />
      <Button type="submit" size="sm" variant="secondary">
        {t('form.addItemButton')}
      </Button>
    </form>
  );
}

function AddSectionForm({
  takenKeys,
  onAdd,
}: {
  takenKeys: readonly string[];
  onAdd: (section: ElementFieldValues) => void;
}) {
  const { t } = useTranslation('designer');
  const [values, setValues] = useState(noValues);
  const [problems, setProblems] = useState<ElementFieldProblems>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = elementFieldProblems(values, takenKeys, t);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    onAdd(values);
    setValues(noValues());
  }

  return (
    <form className={styles.addForm} onSubmit={submit} noValidate aria-label={t('form.addSection')}>
      <h3 className={styles.outlineSectionTitle}>{t('form.addSection')}</h3>
      <ElementFields values={values} onChange={setValues} problems={problems} keyEditable autoFocus={false} />
      <Button type="submit" size="sm" variant="secondary">
        {t('form.addSectionButton')}
      </Button>
    </form>
  );
}
