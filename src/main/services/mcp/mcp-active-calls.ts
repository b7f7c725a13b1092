/**
 * The calls running on each MCP service, each with the handler its caller gave (or none): where a
 * server's request during a call goes (elicitation, sampling). A service's connection is shared,
 * so a request cannot be tied to its caller by the connection: the latest call to `enter` wins.
 * `leave` (returned by `enter`) ends the call and aborts its `ended` signal, so a question asked
 * meanwhile is dropped.
 */
export interface ActiveCall<H> {
  handler: H | undefined;
  ended: AbortController;
}

export class ActiveCalls<H> {
  private readonly calls = new Map<string, ActiveCall<H>[]>();

  /** A call of `serviceId` starts; the returned function ends it. */
  enter(serviceId: string, handler: H | undefined): () => void {
    const call: ActiveCall<H> = { handler, ended: new AbortController() };
    const list = this.calls.get(serviceId) ?? [];
    list.push(call);
    this.calls.set(serviceId, list);
    return () => {
      call.ended.abort();
      const remaining = (this.calls.get(serviceId) ?? []).filter((item) => item !== call);
      if (remaining.length === 0) this.calls.delete(serviceId);
      else this.calls.set(serviceId, remaining);
    };
  }

  /** The call that entered last on `serviceId`, if any runs. */
  latest(serviceId: string): ActiveCall<H> | undefined {
    return this.calls.get(serviceId)?.at(-1);
  }

  /** Number of calls running on `serviceId` (tests, diagnostics). */
  running(serviceId: string): number {
    return this.calls.get(serviceId)?.length ?? 0;
  }
}
