// The desktop's admin lists (kitchen screens, API keys): newest first, a revoked row greyed with
// its word, an active one with a button that asks before revoking.
import type { ReactNode } from 'react';
import type { ConfirmRequest } from './ConfirmDialog.tsx';

export interface RevocableRow {
  id: string;
  revoked_at: string | null;
}

export interface RevocableTableProps<Row extends RevocableRow> {
  rows: Row[];
  className: string;
  /** The row's id goes in this attribute (the tests and the screen's own styles find rows by it). */
  idAttribute: `data-${string}`;
  columns: { title: string; cell(row: Row): ReactNode }[];
  revoke: {
    label: string;
    revokedText: string;
    testId: string;
    confirmBody(row: Row): string;
    run(id: string): void;
  };
  confirm(request: ConfirmRequest): void;
}

export function RevocableTable<Row extends RevocableRow>({ rows, className, idAttribute, columns, revoke, confirm }: RevocableTableProps<Row>) {
  return (
    <table className={className}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.title}>{column.title}</th>
          ))}
          <th />
        </tr>
      </thead>
      <tbody>
        {[...rows].reverse().map((row) => (
          <tr key={row.id} {...{ [idAttribute]: row.id }} className={row.revoked_at ? 'revoked' : ''}>
            {columns.map((column) => (
              // The column's name on the cell itself: a phone stacks the cells and shows it (styles.css).
              <td key={column.title} data-label={column.title}>
                {column.cell(row)}
              </td>
            ))}
            <td>
              {row.revoked_at ? (
                <span className="muted">{revoke.revokedText}</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-danger"
                  data-testid={revoke.testId}
                  onClick={() =>
                    confirm({
                      title: revoke.label,
                      body: revoke.confirmBody(row),
                      confirmLabel: revoke.label,
                      danger: true,
                      onConfirm: () => revoke.run(row.id),
                    })
                  }
                >
                  {revoke.label}
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
