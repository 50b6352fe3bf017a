// Kitchen screens paired to a restaurant (browser tablets), as the desktop's admin screen and the
// devices CLI show them. The device token itself never appears: a screen holds it in an HttpOnly
// cookie, the engine keeps only its salted hash.

/** What a paired screen is: the kitchen board (kitchen and expo views) or the customers' pickup screen. */
export const SCREEN_ROLES = ['kitchen', 'pickup'] as const;
export type ScreenRole = (typeof SCREEN_ROLES)[number];

export interface KitchenDeviceEntry {
  id: string;
  name: string;
  role: ScreenRole;
  /** ISO-8601 in the restaurant's zone. */
  paired_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}

/** A pairing offer: open `pairing_url` on the tablet (or scan `qr_svg`), or type `code` on its pairing page. */
export interface PairingOffer {
  /** Six digits, single use. */
  code: string;
  /** Absolute URL that pairs the browser opening it, e.g. http://192.168.1.20:4750/kitchen/pair?code=123456. */
  pairing_url: string;
  expires_at: string;
  /** The pairing URL as an SVG QR code (markup), drawn locally. */
  qr_svg: string;
  /** False when the engine listens on loopback only: a tablet cannot reach this URL until LAN access is on. */
  reachable_from_lan: boolean;
}

/** When wrong six-digit codes last voided this restaurant's live codes (the QR codes' URLs still pair). */
export interface PairingLockout {
  /** ISO-8601 in the restaurant's zone. */
  voided_at: string;
  /** Wrong codes typed within ten minutes that voided them. */
  failed_attempts: number;
}

/** The cookie holding a paired screen's device token. */
export const DEVICE_COOKIE = 'comanda_device';

/** Where the kitchen lives on the engine's HTTP port, apart from the public /v1 API. */
export const KITCHEN_PATH = '/kitchen';
