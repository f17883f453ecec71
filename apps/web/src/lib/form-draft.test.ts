import { describe, expect, it } from "vitest";
import { clearDraft, isRecord, readDraft, saveDraft } from "./form-draft";

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const parseNamed = (value: unknown) =>
  isRecord(value) && typeof value.name === "string" ? { name: value.name } : null;

describe("form drafts", () => {
  it("reads back what a page saved under its key, until it is cleared", () => {
    const storage = new MemoryStorage();
    saveDraft("/policies/create", { name: "Deny public buckets" }, storage);
    expect(readDraft("/policies/create", parseNamed, storage)).toEqual({ name: "Deny public buckets" });
    expect(readDraft("/settings", parseNamed, storage)).toBeNull();
    clearDraft("/policies/create", storage);
    expect(readDraft("/policies/create", parseNamed, storage)).toBeNull();
  });

  it("gives nothing for what the page did not write", () => {
    const storage = new MemoryStorage();
    storage.setItem("palisade.draft:/a", "not json");
    storage.setItem("palisade.draft:/b", '{"name":7}');
    expect(readDraft("/a", parseNamed, storage)).toBeNull();
    expect(readDraft("/b", parseNamed, storage)).toBeNull();
  });

  it("does not fail when the browser refuses storage", () => {
    const refusing = new MemoryStorage();
    refusing.setItem = () => {
      throw new DOMException("full", "QuotaExceededError");
    };
    refusing.getItem = () => {
      throw new DOMException("denied", "SecurityError");
    };
    expect(() => saveDraft("/a", { name: "x" }, refusing)).not.toThrow();
    expect(readDraft("/a", parseNamed, refusing)).toBeNull();
  });
});
