import { Injectable } from '@nestjs/common';

export type CartKey = { companyId: number; userId: number; cart_no: number };

/**
 * The products of each cart as this process last saw them: only a guess of which way a scan
 * takes (see addProduct), so it may be stale (another replica, another tab) without harm.
 * Bounded: the least recently used cart is forgotten.
 */
@Injectable()
export class SeenCarts {
  private readonly carts = new Map<string, Set<number>>();
  private readonly max = 10_000;

  private id(key: CartKey) {
    return `${key.companyId}:${key.userId}:${key.cart_no}`;
  }

  has(key: CartKey, productId: number): boolean {
    return this.carts.get(this.id(key))?.has(productId) ?? false;
  }

  saw(key: CartKey, lines: readonly { product_id: number }[]) {
    const id = this.id(key);
    this.carts.delete(id);
    if (this.carts.size >= this.max) this.carts.delete(this.carts.keys().next().value!);
    this.carts.set(id, new Set(lines.map((l) => l.product_id)));
  }
}
