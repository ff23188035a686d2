// Keeping one RCON client logged in (docs/rcon.md "Reconnection"): connects on start, reconnects
// after a failure or a loss with backoff, calls its hooks after every connection, leaves nothing
// running after stop. The client itself is client.ts.
import { RconClient, RconClosedError, type RconClientOptions, type RconCommandOptions } from "./client";

export type RconStatus = "connecting" | "connected" | "failed";

export interface RconSessionOptions extends RconClientOptions {
  /** The first wait before a reconnection (default 1000), doubled after each failure… */
  backoffInitialMs?: number;
  /** …up to this (default 60000). */
  backoffMaxMs?: number;
  /** Called after every (re)connection, with the connected client (bans are re-applied there). */
  onConnected?: (client: RconClient) => void | Promise<void>;
  /** A server message that is not a command's answer. */
  onMessage?: (text: string) => void;
  /** Called before each wait for a reconnection: how long, and why. */
  onRetry?: (delayMs: number, reason: string) => void;
  /** An onConnected that threw or rejected. */
  onHookError?: (err: unknown) => void;
}

/**
 * Keeps one RCON client logged in: connects on `start()`, reconnects after a failure or a loss
 * with backoff (1 s doubling to 60 s, back to 1 s after a success), calls `onConnected` after
 * every connection, and leaves no timer or socket behind after `stop()`.
 *
 * status: "connecting" until the first attempt ends and again after a loss (with `error` saying
 * what was lost), "failed" once an attempt failed (until one succeeds; `error` is the latest
 * failure), "connected" while logged in.
 */
export class RconSession {
  private readonly opts: RconSessionOptions;
  private readonly hooks = new Set<(client: RconClient) => void | Promise<void>>();
  private _status: RconStatus = "connecting";
  private _error: string | null = null;
  private _connectedAt: number | null = null;
  private _lastSeenAt: number | null = null;
  private _client: RconClient | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private sleepTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;

  constructor(opts: RconSessionOptions) {
    this.opts = opts;
    this.now = opts.now ?? Date.now;
    if (opts.onConnected) this.hooks.add(opts.onConnected);
  }

  get status(): RconStatus {
    return this._status;
  }
  /** Why the last attempt failed or the connection was lost; null while connected. */
  get error(): string | null {
    return this._error;
  }
  get connectedAt(): number | null {
    return this._connectedAt;
  }
  get lastSeenAt(): number | null {
    return this._client?.lastSeenAt ?? this._lastSeenAt;
  }
  /** The logged-in client, or null. */
  get client(): RconClient | null {
    return this._client?.state === "connected" ? this._client : null;
  }
  get isRunning(): boolean {
    return this.running;
  }

  /** Adds a function called after every (re)connection; returns its remover. */
  onConnected(fn: (client: RconClient) => void | Promise<void>): () => void {
    this.hooks.add(fn);
    return () => this.hooks.delete(fn);
  }

  /** A command on the connected client; RconClosedError (with the last error) when there is none. */
  command(text: string, opts?: RconCommandOptions): Promise<string> {
    const client = this.client;
    if (!client) return Promise.reject(new RconClosedError(this._error ?? `RCON is ${this._status}`));
    return client.command(text, opts);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this._status = "connecting";
    this.loop = this.run();
  }

  /** Stops: closes the client (with @logout), ends the loop; resolves when nothing is left running. */
  async stop(): Promise<void> {
    if (!this.running) return this.loop ?? undefined;
    this.running = false;
    if (this.sleepTimer) clearTimeout(this.sleepTimer);
    this.sleepTimer = null;
    this.wake?.();
    this._client?.close("stopped");
    await this.loop;
  }

  private async run(): Promise<void> {
    const initial = this.opts.backoffInitialMs ?? 1_000;
    const max = this.opts.backoffMaxMs ?? 60_000;
    let backoff = initial;
    while (this.running) {
      const client = new RconClient(this.opts);
      this._client = client;
      if (this.opts.onMessage) client.on("message", this.opts.onMessage);
      const lost = new Promise<string>((resolve) => client.on("disconnected", resolve));
      try {
        await client.connect();
      } catch (err) {
        this._lastSeenAt = client.lastSeenAt ?? this._lastSeenAt;
        if (!this.running) break;
        this._status = "failed";
        this._error = (err as Error).message;
        this.opts.onRetry?.(backoff, this._error);
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, max);
        continue;
      }
      if (!this.running) {
        client.close("stopped");
        break;
      }
      this._status = "connected";
      this._error = null;
      this._connectedAt = this.now();
      backoff = initial;
      for (const hook of [...this.hooks]) this.callHook(hook, client);
      const reason = await lost;
      this._lastSeenAt = client.lastSeenAt ?? this._lastSeenAt;
      if (!this.running) break;
      this._status = "connecting";
      this._error = reason;
      this.opts.onRetry?.(backoff, reason);
      await this.sleep(backoff);
      backoff = Math.min(backoff * 2, max);
    }
    this._client = null;
  }

  private callHook(hook: (client: RconClient) => void | Promise<void>, client: RconClient): void {
    try {
      Promise.resolve(hook(client)).catch((err) => this.opts.onHookError?.(err));
    } catch (err) {
      this.opts.onHookError?.(err);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
      this.sleepTimer = setTimeout(() => {
        this.sleepTimer = null;
        this.wake?.();
      }, ms);
    });
  }
}
