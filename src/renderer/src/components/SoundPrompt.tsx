// A tablet's browser plays no sound until someone touches the page. The first tap anywhere on the
// screen unlocks the new-order alarm; until then the status strip says so with one short word.
import { useEffect, useState } from 'react';
import chime from '../../../../resources/sounds/new-order.wav';

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

/** null while unknown; false until a tap anywhere lets the page play sound. */
export function useSoundAllowed(enabled: boolean): boolean | null {
  const [allowed, setAllowed] = useState<boolean | null>(enabled ? null : true);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void soundAllowed().then((ok) => live && setAllowed(ok));
    // Any first tap is the gesture the browser waits for: the cook need not find a button.
    const onTap = () => void soundAllowed().then((ok) => live && ok && setAllowed(true));
    document.addEventListener('pointerdown', onTap, { capture: true });
    document.addEventListener('keydown', onTap, { capture: true });
    return () => {
      live = false;
      document.removeEventListener('pointerdown', onTap, { capture: true });
      document.removeEventListener('keydown', onTap, { capture: true });
    };
  }, [enabled]);
  return allowed;
}
