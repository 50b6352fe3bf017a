// A tablet's browser plays no sound until someone touches the page. Until it does, the board says
// so: "Toca para activar el sonido". One tap (anywhere on the prompt) unlocks the new-order alarm.
import { useEffect, useState } from 'react';
import chime from '../../../../resources/sounds/new-order.wav';
import { useT } from '../app-context.tsx';

/** Whether the browser lets this page play sound now (tried silently). */
async function soundAllowed(): Promise<boolean> {
  const audio = new Audio(chime);
  audio.volume = 0;
  try {
    await audio.play();
    audio.pause();
    return true;
  } catch {
    return false;
  }
}

export function SoundPrompt() {
  const t = useT();
  const [allowed, setAllowed] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void soundAllowed().then((ok) => live && setAllowed(ok));
    return () => {
      live = false;
    };
  }, []);
  if (allowed !== false) return null;
  return (
    <button type="button" className="sound-prompt" data-testid="sound-prompt" onClick={() => void soundAllowed().then(setAllowed)}>
      {t('tablet.sound_prompt')}
    </button>
  );
}
