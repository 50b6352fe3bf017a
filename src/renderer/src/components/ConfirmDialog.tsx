import { useEffect, useRef } from 'react';
import { useT } from '../app-context.tsx';

export interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm(): void;
}

export function ConfirmDialog({ request, onClose }: { request: ConfirmRequest | null; onClose(): void }) {
  const t = useT();
  const backRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (request) backRef.current?.focus();
  }, [request]);
  if (!request) return null;
  return (
    <div className="dialog-backdrop" role="presentation" onClick={onClose}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="dialog-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="dialog-title">{request.title}</h2>
        <p>{request.body}</p>
        <div className="dialog-actions">
          <button ref={backRef} type="button" className="btn btn-secondary" data-testid="confirm-back" onClick={onClose}>
            {t('confirm.back')}
          </button>
          <button
            type="button"
            className={`btn ${request.danger ? 'btn-danger' : 'btn-primary'}`}
            data-testid="confirm-yes"
            onClick={() => {
              request.onConfirm();
              onClose();
            }}
          >
            {request.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
