import { WORLDS, type World } from '../../../shared/world.ts';
import { useT } from '../app-context.tsx';

export function WorldToggle({ world, onChange }: { world: World; onChange(world: World): void }) {
  const t = useT();
  return (
    <div className="segmented" role="group" data-testid="world-toggle">
      {WORLDS.map((w) => (
        <button key={w} type="button" className={`btn ${world === w ? 'active' : ''} world-${w}`} aria-pressed={world === w} data-world={w} onClick={() => onChange(w)}>
          {t(w === 'live' ? 'world.live' : 'world.test')}
        </button>
      ))}
    </div>
  );
}
