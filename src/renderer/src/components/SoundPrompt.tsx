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

/**
 * True once a tap (or key) on this page let it play a sound; false until then where it is enabled
 * (a browser's screen). The page does not probe before the first touch: a probe's play() need not
 * settle while the media loads, and a browser that allows it is rare on a kitchen's tablet, so the
 * strip asks for the one tap that makes the alarm sure.
 */
export function useSoundAllowed(enabled: boolean): boolean {
  const [allowed, setAllowed] = useState(!enabled);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    // Any first tap is the gesture the browser waits for: the cook need not find a button.
    const onTap = () => void soundAllowed().then((ok) => live && ok && setAllowed(true));
    // A touch activates the page at its end (pointerup), a mouse at pointerdown, a key at keydown.
    const gestures = ['pointerdown', 'pointerup', 'keydown'] as const;
    for (const gesture of gestures) document.addEventListener(gesture, onTap, { capture: true });
    return () => {
      live = false;
      for (const gesture of gestures) document.removeEventListener(gesture, onTap, { capture: true });
    };
  }, [enabled]);
  return allowed;
}
