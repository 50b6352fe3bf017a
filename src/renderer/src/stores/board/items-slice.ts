// Item-level bump and recall, this screen's side: a tapped item shows struck at once and stays so
// until the feed brings the ticket with that item as the engine now has it (the reply only
// acknowledges); a refusal takes the mark back and says why. Recall asks the engine to bring a
// finished ticket back; the feed brings it.
import type { KitchenTicket } from '../../../../shared/ipc/kitchen.ts';
import { IpcCallError } from '../../api.ts';
import type { BoardContext, GetBoard, SetBoard } from './context.ts';

export interface ItemsSlice {
  /** Item marks not yet shown back by the feed, by `orderId:index`. */
  itemMarks: Record<string, boolean>;
  toggleItem(orderId: string, index: number): void;
  recall(orderId: string): void;
  /** The feed brought this ticket: the marks it now reflects are done. */
  settleItems(ticket: KitchenTicket): void;
}

export const itemKey = (orderId: string, index: number) => `${orderId}:${index}`;

/** Whether an item shows struck on this screen: its own pending mark, else the engine's word. */
export function itemDone(marks: Record<string, boolean>, orderId: string, index: number, done: boolean): boolean {
  return marks[itemKey(orderId, index)] ?? done;
}

export function createItemsSlice(set: SetBoard, get: GetBoard, ctx: BoardContext): ItemsSlice {
  const setMark = (key: string, value: boolean | undefined) =>
    set((s) => {
      const { [key]: _old, ...rest } = s.itemMarks;
      return { itemMarks: value === undefined ? rest : { ...rest, [key]: value } };
    });

  const refused = (orderId: string, error: unknown) => {
    const reached = error instanceof IpcCallError;
    if (reached) get().heard();
    else get().lostEngine();
    get().addToast({ kind: 'refused', orderId, number: get().tickets[orderId]?.order.number ?? '?', code: reached ? error.code : 'unreachable' });
  };

  return {
    itemMarks: {},

    toggleItem(orderId, index) {
      const ticket = get().tickets[orderId];
      const item = ticket?.kitchen.items.find((i) => i.index === index);
      if (!ticket || !item || !ctx.api.setItemDone) return;
      const key = itemKey(orderId, index);
      const done = !itemDone(get().itemMarks, orderId, index, item.done);
      setMark(key, done);
      get().touch(orderId);
      ctx.api.setItemDone({ order_id: orderId, item_index: index, done }).then(
        () => get().heard(),
        (error: unknown) => {
          if (get().itemMarks[key] === done) setMark(key, undefined);
          refused(orderId, error);
        },
      );
    },

    recall(orderId) {
      if (!ctx.api.recallOrder) return;
      ctx.api.recallOrder({ order_id: orderId }).then(
        () => get().heard(),
        (error: unknown) => refused(orderId, error),
      );
    },

    settleItems(ticket) {
      const marks = get().itemMarks;
      for (const item of ticket.kitchen.items) {
        const key = itemKey(ticket.order.id, item.index);
        if (marks[key] === item.done) setMark(key, undefined);
      }
    },
  };
}
