// The keyboard shortcuts, and the switch that turns them off (WCAG 2.1.4).
import { SHORTCUTS, setShortcutsOn, shortcutsOn } from "../player/keys.ts";
import { PageTitle } from "../ui/headings.tsx";

export function Shortcuts() {
  return (
    <>
      <PageTitle title="Keyboard shortcuts">Keyboard shortcuts</PageTitle>
      <p>
        They work anywhere on the page except in a field that takes the key (text, a slider, a
        choice).
      </p>
      <label class="row">
        <input
          type="checkbox"
          checked={shortcutsOn.value}
          onChange={(e) => setShortcutsOn(e.currentTarget.checked)}
        />
        Use keyboard shortcuts
      </label>
      <dl class="shortcuts">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
