// The desktop's admin lists (kitchen screens, API keys) run each action the same way: the screen
// shows it busy, a refusal becomes the message on show, and the caller learns whether it worked.
import { errorMessage } from '../api.ts';

export interface AdminActionState {
  busy: boolean;
  error: string | null;
}

/** `attempt(work)` for a screen state that holds `busy` and `error`: true when `work` succeeded. */
export function adminAction(set: (partial: Partial<AdminActionState>) => void): (work: () => Promise<void>) => Promise<boolean> {
  return async (work) => {
    set({ busy: true, error: null });
    try {
      await work();
      set({ busy: false });
      return true;
    } catch (error) {
      set({ busy: false, error: errorMessage(error) });
      return false;
    }
  };
}
