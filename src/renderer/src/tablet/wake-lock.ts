// A tablet showing the board must not dim and lock: the Screen Wake Lock, held while the board is
// on screen and taken again when the page comes back to the front (the browser drops it when hidden).
import { useEffect } from 'react';

interface WakeLockSentinelLike {
  release(): Promise<void>;
  addEventListener(type: 'release', listener: () => void): void;
}
interface WakeLockLike {
  request(type: 'screen'): Promise<WakeLockSentinelLike>;
}

export function useWakeLock(active: boolean): void {
  useEffect(() => {
    const wakeLock = (navigator as Navigator & { wakeLock?: WakeLockLike }).wakeLock;
    if (!active || !wakeLock) return;
    let sentinel: WakeLockSentinelLike | null = null;
    let stopped = false;
    const take = () => {
      if (stopped || document.visibilityState !== 'visible' || sentinel) return;
      wakeLock.request('screen').then(
        (lock) => {
          if (stopped) {
            void lock.release();
            return;
          }
          sentinel = lock;
          document.documentElement.dataset.wakeLock = 'on';
          lock.addEventListener('release', () => {
            sentinel = null;
            document.documentElement.dataset.wakeLock = 'off';
          });
        },
        // Refused (no secure context, battery saver): the screen may sleep; nothing else to do.
        () => {
          document.documentElement.dataset.wakeLock = 'refused';
        },
      );
    };
    take();
    document.addEventListener('visibilitychange', take);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', take);
      void sentinel?.release();
    };
  }, [active]);
}
