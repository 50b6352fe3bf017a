// A stand-in network printer for tests: a TCP server on a real port that reads the ESC/POS it is
// sent back into lines of text (with their reverse print, bold and size), cuts and real-time status
// requests (DLE EOT), and can refuse connections, stall, drop them or report paper out; and
// misbehave the way devices found at a printer's address do (issue 29): stream bytes without end,
// answer garbage, close early, reset after 20 bytes, speak HTTP, answer paper end after the ticket,
// read at 1.5 KB/s, never answer the second status question, never close. An unknown command is
// recorded as a protocol error, so a test sees bytes no real printer would take.
import { createServer, type Server, type Socket } from 'node:net';

export interface PrintedLine {
  text: string;
  /** Any of the line was in reverse print (GS B 1). */
  inverted: boolean;
  bold: boolean;
  /** Character width and height multipliers (GS !). */
  width: number;
  height: number;
}

export interface PrintedTicket {
  lines: PrintedLine[];
  /** The lines' text, trimmed at the end. */
  text: string[];
  cut: boolean;
}

/**
 * ok; refuse: connections closed at once; stall: reads, answers nothing; hold-ticket: answers the
 * status asked before a ticket, prints the ticket, never answers the one after it (the sender
 * waits: a crash then leaves its job mid-send); drop-mid-ticket: takes half a ticket and drops the
 * connection; paper-out: the paper sensor says the roll is empty.
 * Devices that are not quite printers: stream: sends paper-present status bytes without end, as
 * fast as the connection takes them; garbage: answers each question with bytes no printer sends;
 * close-early: answers the first question, then closes before the ticket; reset-after-20: answers
 * the first question, takes 20 bytes of the ticket, then resets the connection (RST); http: a web
 * server (a printer's configuration page) answering whatever comes with an HTTP response;
 * paper-end-after: prints the ticket, then says paper end; slow: reads at `readBytesPerSecond`
 * (1.5 KB/s), answering each question when it reaches it; never-close: prints and answers, but
 * never closes its side of the connection.
 */
export type PrinterBehaviour =
  | 'ok' | 'refuse' | 'stall' | 'hold-ticket' | 'drop-mid-ticket' | 'paper-out'
  | 'stream' | 'garbage' | 'close-early' | 'reset-after-20' | 'http' | 'paper-end-after' | 'slow' | 'never-close';

/** What the http behaviour answers: a printer's web page refusing what it was sent. */
const HTTP_ANSWER = 'HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nContent-Length: 44\r\nConnection: close\r\n\r\n<html><body>400 Bad Request</body></html>\r\n';
/** What the garbage behaviour answers to each question: nothing a paper sensor says. */
const GARBAGE = Uint8Array.of(0x00, 0xff, 0x41, 0x0d);

// Code page 850's upper half (858 differs only at 0xD5: € instead of ı).
const CP850_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0';
const CP858_HIGH = CP850_HIGH.slice(0, 0x55) + '€' + CP850_HIGH.slice(0x56);
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const WINDOWS1252_HIGH = new TextDecoder('windows-1252').decode(Uint8Array.from({ length: 128 }, (_, i) => 128 + i));
/** ESC t n, Epson's numbering. */
const CODE_PAGES: Record<number, string> = { 0: CP437_HIGH, 2: CP850_HIGH, 16: WINDOWS1252_HIGH, 19: CP858_HIGH };

/** DLE EOT 4 answers: paper present, or paper end (bits 5 and 6). */
const PAPER_OK = 0x12;
const PAPER_END = 0x72;

export class StandInPrinter {
  readonly tickets: PrintedTicket[] = [];
  readonly protocolErrors: string[] = [];
  /** Connections accepted (a refused one is not). */
  connections = 0;
  statusRequests = 0;
  behaviour: PrinterBehaviour = 'ok';
  /** The slow behaviour's reading speed: 1.5 KB/s, a printer slower than its ticket. */
  readBytesPerSecond = 1536;
  /** Bytes received in all, over every connection. */
  bytesReceived = 0;
  /** Bytes the stream behaviour has sent. */
  bytesStreamed = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private portNumber = 0;
  private waiters: (() => void)[] = [];

  get port(): number {
    return this.portNumber;
  }

  /** Connections open now (a sender that leaves one open shows here). */
  get openConnections(): number {
    return this.sockets.size;
  }

  async start(port = 0): Promise<this> {
    // Half-open allowed: the sender's end does not close this side by itself (never-close keeps it open).
    const server = createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.portNumber = (server.address() as { port: number }).port;
    return this;
  }

  /** The printer is switched off: nothing listens on its port (connections are refused). */
  async switchOff(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Switched on again, on the same port. */
  async switchOn(): Promise<void> {
    if (!this.server) await this.start(this.portNumber);
  }

  async stop(): Promise<void> {
    await this.switchOff();
  }

  /** Resolves once `count` tickets have been cut (waits on the condition, never on time). */
  async waitForTickets(count: number): Promise<PrintedTicket[]> {
    while (this.tickets.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.tickets;
  }

  /** Every ticket's decoded text, for the test artifacts. */
  transcript(): string {
    return this.tickets
      .map((t, i) => [`--- ticket ${i + 1}${t.cut ? '' : ' (not cut)'} ---`, ...t.lines.map((l) => `${l.inverted ? '[INV] ' : ''}${l.width > 1 || l.height > 1 ? `[${l.width}x${l.height}] ` : ''}${l.text}`)].join('\n'))
      .join('\n');
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private accept(socket: Socket): void {
    if (this.behaviour === 'refuse') {
      socket.destroy();
      return;
    }
    this.connections++;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    const behaviour = this.behaviour;
    socket.on('end', () => {
      if (behaviour !== 'never-close') socket.end();
    });
    const parser = new EscPosParser((ticket) => {
      this.tickets.push(ticket);
      this.wake();
    }, (error) => this.protocolErrors.push(error));
    if (behaviour === 'stream') {
      this.stream(socket);
      return;
    }
    let statusAnswered = 0;
    let ticketBytes = 0;
    /** Reads `chunk` as a printer does: prints it, and answers the status questions in it. */
    const take = (chunk: Uint8Array) => {
      this.bytesReceived += chunk.length;
      if (behaviour === 'stall') return; // reads, never answers, never prints
      if (behaviour === 'http') {
        socket.end(HTTP_ANSWER);
        return;
      }
      if (statusAnswered > 0) {
        if (behaviour === 'drop-mid-ticket') {
          // Takes half of the ticket, then the line goes dead.
          parser.feed(chunk.subarray(0, Math.floor(chunk.length / 2)));
          socket.destroy();
          return;
        }
        if (behaviour === 'close-early') {
          socket.destroy();
          return;
        }
        if (behaviour === 'reset-after-20') {
          const room = 20 - ticketBytes;
          ticketBytes += chunk.length;
          if (ticketBytes >= 20) {
            parser.feed(chunk.subarray(0, room));
            socket.resetAndDestroy();
            return;
          }
        }
      }
      const statusBefore = parser.statusRequests;
      parser.feed(chunk);
      for (let i = statusBefore; i < parser.statusRequests; i++) {
        this.statusRequests++;
        if (behaviour === 'hold-ticket' && statusAnswered > 0) continue;
        statusAnswered++;
        if (behaviour === 'garbage') socket.write(GARBAGE);
        else if (behaviour === 'paper-out' || (behaviour === 'paper-end-after' && statusAnswered > 1)) socket.write(Uint8Array.of(PAPER_END));
        else socket.write(Uint8Array.of(PAPER_OK));
      }
      this.wake();
    };
    if (behaviour !== 'slow') {
      socket.on('data', take);
      return;
    }
    // A printer slower than its ticket: what arrives waits, and is read a slice every tenth of a second.
    const pending: Buffer[] = [];
    const slice = Math.max(1, Math.round(this.readBytesPerSecond / 10));
    const reader = setInterval(() => {
      let room = slice;
      while (room > 0 && pending.length > 0) {
        const head = pending[0]!;
        const part = head.subarray(0, room);
        room -= part.length;
        if (part.length === head.length) pending.shift();
        else pending[0] = head.subarray(part.length);
        take(part);
      }
      if (pending.length === 0) socket.resume();
    }, 100);
    socket.on('close', () => clearInterval(reader));
    socket.on('data', (chunk: Buffer) => {
      pending.push(chunk);
      socket.pause();
    });
  }

  /** The stream behaviour: paper-present bytes without end, as fast as the connection takes them. */
  private stream(socket: Socket): void {
    const block = Buffer.alloc(64 * 1024, PAPER_OK);
    const pump = () => {
      while (!socket.destroyed && socket.writable) {
        this.bytesStreamed += block.length;
        if (!socket.write(block)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('data', (chunk: Buffer) => {
      this.bytesReceived += chunk.length;
    });
    pump();
  }
}

/** ESC/POS bytes → lines and tickets: the subset a kitchen ticket uses, every other command an error. */
export class EscPosParser {
  statusRequests = 0;
  private buffer: number[] = [];
  private lines: PrintedLine[] = [];
  private current = '';
  private currentInverted = false;
  private currentBold = false;
  private inverted = false;
  private bold = false;
  private width = 1;
  private height = 1;
  private maxWidth = 1;
  private maxHeight = 1;
  private table = CP850_HIGH;
  private codePageSet = false;

  constructor(
    private readonly onTicket: (ticket: PrintedTicket) => void,
    private readonly onError: (error: string) => void,
  ) {}

  feed(bytes: Uint8Array): void {
    this.buffer.push(...bytes);
    for (;;) {
      const used = this.step();
      if (used === 0) return;
      this.buffer.splice(0, used);
    }
  }

  /** Parses one command or character from the buffer; returns the bytes it used (0: wait for more). */
  private step(): number {
    const b = this.buffer;
    if (b.length === 0) return 0;
    const need = (n: number) => (b.length >= n ? n : 0);
    const byte = b[0]!;
    if (byte === 0x0a) {
      this.endLine();
      return 1;
    }
    if (byte === 0x0d) return 1;
    if (byte === 0x10) {
      if (!need(3)) return 0;
      if (b[1] === 0x04) this.statusRequests++;
      else this.onError(`unknown DLE command ${b[1]}`);
      return 3;
    }
    if (byte === 0x1b) {
      if (!need(2)) return 0;
      const cmd = b[1]!;
      if (cmd === 0x40) {
        this.reset();
        return 2;
      }
      if (!need(3)) return 0;
      const n = b[2]!;
      switch (cmd) {
        case 0x74: {
          const table = CODE_PAGES[n];
          if (table === undefined) this.onError(`code page ${n} not known to the stand-in`);
          else this.table = table;
          this.codePageSet = true;
          return 3;
        }
        case 0x45: this.bold = n === 1; this.currentBold ||= this.bold; return 3;
        case 0x61: case 0x4d: case 0x2d: case 0x33: case 0x64: case 0x4a: case 0x21: case 0x47: case 0x56: case 0x7b: case 0x52:
          return 3;
        case 0x32: return 2;
        default:
          this.onError(`unknown command ESC ${cmd.toString(16)}`);
          return 2;
      }
    }
    if (byte === 0x1d) {
      if (!need(3)) return 0;
      const cmd = b[1]!;
      const n = b[2]!;
      switch (cmd) {
        case 0x21:
          this.width = (n >> 4) + 1;
          this.height = (n & 0x0f) + 1;
          return 3;
        case 0x42: this.inverted = n === 1; return 3;
        case 0x56:
          if (n === 0x41 || n === 0x42 || n === 65 || n === 66) {
            if (!need(4)) return 0;
            this.cut();
            return 4;
          }
          this.cut();
          return 3;
        case 0x4c: case 0x57: if (!need(4)) return 0; return 4;
        default:
          this.onError(`unknown command GS ${cmd.toString(16)}`);
          return 3;
      }
    }
    if (byte === 0x1c) {
      if (!need(2)) return 0;
      return 2; // FS . / FS & (Kanji mode off/on): no text effect here
    }
    if (byte < 0x20) {
      this.onError(`unknown control byte ${byte}`);
      return 1;
    }
    if (byte >= 0x80 && !this.codePageSet) this.onError('a byte above 127 before any code page was chosen');
    const char = byte < 0x80 ? String.fromCharCode(byte) : this.table[byte - 0x80]!;
    if (char.trim() !== '') {
      this.currentInverted ||= this.inverted;
      this.currentBold ||= this.bold;
      this.maxWidth = Math.max(this.maxWidth, this.width);
      this.maxHeight = Math.max(this.maxHeight, this.height);
    }
    this.current += char;
    return 1;
  }

  private reset(): void {
    this.inverted = false;
    this.bold = false;
    this.width = 1;
    this.height = 1;
  }

  private endLine(): void {
    this.lines.push({ text: this.current.trimEnd(), inverted: this.currentInverted, bold: this.currentBold, width: this.maxWidth, height: this.maxHeight });
    this.current = '';
    this.currentInverted = false;
    this.currentBold = this.bold;
    this.maxWidth = 1;
    this.maxHeight = 1;
  }

  private cut(): void {
    if (this.current !== '') this.endLine();
    // Feed lines before a cut are blank paper, not text.
    while (this.lines.length > 0 && this.lines[this.lines.length - 1]!.text === '') this.lines.pop();
    const lines = this.lines;
    this.lines = [];
    this.onTicket({ lines, text: lines.map((l) => l.text), cut: true });
  }
}
