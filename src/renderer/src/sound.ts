// The new-order alarm: one bundled sound, repeated while an untouched new ticket exists.
import chime from '../../../resources/sounds/new-order.wav';

export interface Alarm {
  setRinging(ringing: boolean): void;
}

/** How often the chime repeats while ringing. */
const ALARM_REPEAT_MS = 4000;

export function createAlarm(): Alarm {
  let audio: HTMLAudioElement | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  const play = () => {
    audio ??= new Audio(chime);
    audio.currentTime = 0;
    // A browser may refuse before any user gesture; the app's window allows it (main sets the policy).
    void audio.play().catch(() => {});
  };
  return {
    setRinging(ringing) {
      if (ringing && timer === null) {
        play();
        timer = setInterval(play, ALARM_REPEAT_MS);
      } else if (!ringing && timer !== null) {
        clearInterval(timer);
        timer = null;
        audio?.pause();
      }
    },
  };
}
