/**
 * One subscription point for everything that needs element starts, element ends and page text
 * during an HTMLRewriter pass. It exists because HTMLRewriter keeps a single end-tag handler per
 * element (a second `onEndTag` replaces the first), so collectors that each registered their own
 * would silently lose each other's ends.
 */
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

  constructor(rewriter: HTMLRewriter) {
    rewriter.on("*", { element: (element) => this.start(element) });
    rewriter.onDocument({
      text: (chunk) => {
        if (this.rawTextDepth === 0 && chunk.text) for (const listener of this.textListeners) listener(chunk.text);
      },
      end: () => {
        for (const listener of this.endListeners) listener();
      },
    });
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
