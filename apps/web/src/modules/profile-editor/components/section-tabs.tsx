import { classNames } from '@digicard/ui';
import type { KeyboardEvent } from 'react';
import { Sections, type EditorSection, type SectionId } from '../utils/sections';

export const SECTION_PANEL_ID = 'pe-section-panel';
export const tabId = (id: SectionId): string => `pe-tab-${id}`;

interface SectionTabsProps {
  active: SectionId;
  onSelect: (id: SectionId) => void;
  /** The sections this owner sees (all but Teams unless a team leader). */
  sections?: readonly EditorSection[];
}

/**
 * The button bar that shows one section at a time: a tab list (arrow keys, Home and End move between the tabs;
 * Tab goes on into the section). Every tab controls the one panel, which shows the chosen section.
 */
export function SectionTabs({ active, onSelect, sections = Sections }: SectionTabsProps) {
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = sections.findIndex((section) => section.id === active);
    const last = sections.length - 1;
    const next =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const section = next === null ? undefined : sections[next];
    if (!section) return;
    event.preventDefault();
    onSelect(section.id);
    document.getElementById(tabId(section.id))?.focus();
  }

  return (
    <div className="pe-tabs" role="tablist" aria-label="Profile sections" onKeyDown={onKeyDown}>
      {sections.map((section) => {
        const selected = section.id === active;
        return (
          <button
            key={section.id}
            id={tabId(section.id)}
            type="button"
            role="tab"
            className={classNames('pe-tab', selected && 'pe-tab--active')}
            aria-selected={selected}
            aria-controls={SECTION_PANEL_ID}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(section.id)}
          >
            {section.label}
          </button>
        );
      })}
    </div>
  );
}
