import { Alert, Button, ButtonGroup, Callout, Classes, Switch } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Annotation } from '@generated/model/annotation';
import { measureMark } from '@/domain/annotations/measure';
import { formatDateTime } from '@/lib/format';
import { measurableDraft, type DrawTool } from './drawing';
import { figuresLine, useMarkFigures } from './figures';
import type { FundusMarks } from './use-fundus-marks';
import './icons';
import './fundus-marks.css';

const TOOLS: { tool: DrawTool | null; icon: 'hand' | 'map-marker' | 'arrows-horizontal' | 'circle' | 'polygon-filter' }[] = [
  { tool: null, icon: 'hand' },
  { tool: 'point', icon: 'map-marker' },
  { tool: 'line', icon: 'arrows-horizontal' },
  { tool: 'circle', icon: 'circle' },
  { tool: 'polygon', icon: 'polygon-filter' },
];

/** The drawing tools, where marks can be changed (nothing otherwise). */
export function MarksToolbar({ marks, compact = false }: { marks: FundusMarks; compact?: boolean }) {
  const { t } = useTranslation('marks');
  if (!marks.editable) return null;
  return (
    <ButtonGroup role="toolbar" aria-label={t('toolbar')}>
      {TOOLS.map(({ tool, icon }) => {
        const name = t(`tools.${tool ?? 'select'}`);
        const active = marks.tool === tool;
        return (
          <Button
            key={tool ?? 'select'}
            icon={icon}
            active={active}
            aria-pressed={active}
            title={compact ? name : undefined}
            aria-label={compact ? name : undefined}
            onClick={() => marks.setTool(tool)}
          >
            {compact ? undefined : name}
          </Button>
        );
      })}
    </ButtonGroup>
  );
}

/** "Show marks": the marks on the image or not (the list stays). */
export function MarksSwitch({ marks }: { marks: FundusMarks }) {
  const { t } = useTranslation('marks');
  return <Switch className="mp-marks-switch" checked={marks.visible} label={t('show')} onChange={(event) => marks.setVisible(event.currentTarget.checked)} />;
}

/** What the chosen tool does, and the live figures of what is being drawn with their scale's source. */
export function MarksStatus({ marks, quietWithoutTool = false }: { marks: FundusMarks; quietWithoutTool?: boolean }) {
  const { t } = useTranslation('marks');
  const figuresOf = useMarkFigures();
  const { tool, image } = marks;
  if (!marks.editable || !image || (quietWithoutTool && !tool)) return null;
  const draft = tool ? measurableDraft(marks.draw, tool, image) : null;
  const figures = draft ? figuresOf(measureMark(draft, marks.scale)) : null;
  return (
    <p className="mp-marks-status mp-muted-text" data-testid="marks-status">
      {figures ? figuresLine(figures) : t(`hints.${tool ?? 'select'}`)}
    </p>
  );
}

function MarkItem({ marks, mark, number }: { marks: FundusMarks; mark: Annotation; number: number }) {
  const { t, i18n } = useTranslation('marks');
  const figuresOf = useMarkFigures();
  const ids = { title: useId(), figures: useId(), note: useId(), by: useId(), hint: useId() };
  const figures = figuresOf(mark.measurement);
  const label = marks.labelOf(mark);
  const selected = marks.selectedId === mark.id;
  const describedBy = [figures && ids.figures, mark.note && ids.note, ids.by, marks.editable && ids.hint].filter(Boolean).join(' ');
  return (
    <li className={`mp-marks-item${selected ? ' mp-marks-item-selected' : ''}`} data-mark-id={mark.id}>
      <button
        type="button"
        className="mp-marks-item-main"
        aria-current={selected || undefined}
        aria-labelledby={ids.title}
        aria-describedby={describedBy}
        onFocus={() => marks.setSelectedId(mark.id)}
        onClick={() => {
          marks.setSelectedId(mark.id);
          marks.openEdit(mark);
        }}
        onKeyDown={(event) => {
          if (marks.editable && (event.key === 'Delete' || event.key === 'Backspace')) {
            event.preventDefault();
            marks.askDelete(mark);
          }
        }}
      >
        <span id={ids.title} className="mp-marks-item-title">{t('item', { number, label })}</span>
        {figures && (
          <span id={ids.figures} className="mp-marks-item-line">
            {figuresLine(figures)}
          </span>
        )}
        {mark.note && (
          <span id={ids.note} className="mp-marks-item-line mp-marks-item-note">
            {mark.note}
          </span>
        )}
        <span id={ids.by} className="mp-marks-item-line mp-muted-text">
          {t('byWhom', { name: mark.createdBy.name, date: formatDateTime(mark.updatedAt, i18n.language) })}
        </span>
        {marks.editable && (
          <span id={ids.hint} className="mp-visually-hidden">
            {t('itemHint')}
          </span>
        )}
      </button>
      {marks.editable && (
        <Button
          variant="minimal"
          icon="trash"
          aria-label={`${t('delete')}: ${t('item', { number, label })}`}
          title={t('delete')}
          tabIndex={-1}
          onClick={() => marks.askDelete(mark)}
        />
      )}
    </li>
  );
}

/**
 * The image's marks as a list: label, figures with the scale's source, note, who and when. It is also the
 * keyboard's way to the marks: each is a button (Enter opens it, Delete asks to remove it).
 */
export function MarksList({ marks, headingLevel = 3 }: { marks: FundusMarks; headingLevel?: 2 | 3 | 4 }) {
  const { t } = useTranslation('marks');
  const headingId = useId();
  const Heading = `h${headingLevel}` as const;
  const { list } = marks;
  return (
    <section className="mp-marks-panel" aria-labelledby={headingId}>
      <Heading id={headingId} className="mp-marks-heading">
        {t('listLabel')}
        {list.data ? ` (${marks.marks.length})` : ''}
      </Heading>
      {marks.locked && (
        <Callout intent="warning" compact className="mp-dialog-callout">
          {t('locked')}
        </Callout>
      )}
      {list.data && !marks.scale && <p className="mp-muted-text">{t('noScale')}</p>}
      {list.isError ? (
        <Callout intent="danger" role="alert" compact>
          {t('loadFailed')}
        </Callout>
      ) : !list.data ? (
        <p className={Classes.SKELETON}>{t('loading')}</p>
      ) : marks.marks.length === 0 ? (
        <p className="mp-muted-text">{t(marks.editable ? 'empty' : 'emptyReadOnly')}</p>
      ) : (
        <ol className="mp-marks-list">
          {marks.marks.map((mark, index) => (
            <MarkItem key={mark.id} marks={marks} mark={mark} number={index + 1} />
          ))}
        </ol>
      )}
    </section>
  );
}

/** The question before a mark is removed. */
export function DeleteMarkAlert({ marks }: { marks: FundusMarks }) {
  const { t } = useTranslation('marks');
  const ids = { title: useId(), text: useId() };
  const mark = marks.deleting;
  return (
    <Alert
      isOpen={Boolean(mark)}
      intent="danger"
      icon="trash"
      cancelButtonText={t('form.cancel')}
      confirmButtonText={t('delete')}
      loading={marks.remove.isPending}
      onCancel={() => marks.askDelete(null)}
      onConfirm={() => mark && marks.remove.mutate({ id: marks.treatmentId, imageId: mark.imageId, annotationId: mark.id })}
      // Named by its heading (Blueprint's Alert has no title of its own): a screen reader says what it asks.
      aria-labelledby={ids.title}
      aria-describedby={ids.text}
    >
      {mark && (
        <>
          <h2 className="mp-marks-alert-title" id={ids.title}>
            {t('deleteTitle', { number: marks.numberOf(mark) })}
          </h2>
          <p id={ids.text}>{t('deleteQuestion', { number: marks.numberOf(mark), label: marks.labelOf(mark) })}</p>
        </>
      )}
    </Alert>
  );
}
