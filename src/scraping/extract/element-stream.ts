/**
 * One subscription point for everything that needs element starts, element ends and page text
 * during an HTMLRewriter pass. It exists because HTMLRewriter keeps a single end-tag handler per
 * element (a second `onEndTag` replaces the first), so collectors that each registered their own
 * would silently lose each other's ends.
 */
import type { ScrapeError } from "../errors";
import type { WorkBudget } from "../../publishers/kit/work-budget";

export type EndCallback = () => void;
export type ElementListener = (element: Element, onEnd: (callback: EndCallback) => void) => void;
export type TextListener = (text: string) => void;

// Elements whose text is not page text.
const RAW_TEXT = new Set(["script", "style", "template", "noscript", "textarea"]);

export class ElementStream {
  private readonly elementListeners: ElementListener[] = [];
  private readonly textListeners: TextListener[] = [];
  private readonly endListeners: EndCallback[] = [];
  private rawTextDepth = 0;
  /** The budget's error once the page needed more work than it allows; the stream then stops feeding listeners. */
  overBudget: ScrapeError | null = null;

  constructor(
    rewriter: HTMLRewriter,
    private readonly budget: WorkBudget,
  ) {
    rewriter.on("*", { element: (element) => this.start(element) });
    rewriter.onDocument({
      text: (chunk) => {
        if (this.rawTextDepth === 0 && chunk.text && this.spend(1))
          for (const listener of this.textListeners) listener(chunk.text);
      },
      end: () => {
        for (const listener of this.endListeners) listener();
      },
    });
  }

  /**
   * Counts `n` units of a listener's work against the page's budget. An error thrown inside an
   * HTMLRewriter handler does not reliably come out of the transform as itself, so the first refusal
   * is kept (and rethrown by the extractor after the pass) and nothing more is done for the page.
   */
  spend(n: number): boolean {
    if (this.overBudget) return false;
    try {
      this.budget.spend(n);
      return true;
    } catch (err) {
      this.overBudget = err as ScrapeError;
      return false;
    }
  }

  onElement(listener: ElementListener): void {
    this.elementListeners.push(listener);
  }

  /** Page text in document order, without script and style contents, entities not yet decoded. */
  onText(listener: TextListener): void {
    this.textListeners.push(listener);
  }

  /** Called once the whole document has been read (elements left unclosed never see their end). */
  onDocumentEnd(listener: EndCallback): void {
    this.endListeners.push(listener);
  }

  private start(element: Element): void {
    if (!this.spend(1)) return;
    const callbacks: EndCallback[] = [];
    const onEnd = (callback: EndCallback) => callbacks.push(callback);
    if (RAW_TEXT.has(element.tagName)) {
      this.rawTextDepth += 1;
      onEnd(() => {
        this.rawTextDepth -= 1;
      });
    }
    for (const listener of this.elementListeners) listener(element, onEnd);
    if (!callbacks.length) return;
    // Innermost-first, like the stacks the listeners keep.
    const end = () => callbacks.reverse().forEach((callback) => callback());
    try {
      element.onEndTag(end);
    } catch {
      // Void and self-closing elements have no end tag: they end where they start.
      end();
    }
  }
}
