package acme
package shop

import acme.util.{Log, Strings => S}
import util.titleCase

class Catalog(log: Log) {
  private var items = Map.empty[String, Item]

  def add(name: String, price: Int): Item = {
    val item = Item(S.slug(name), titleCase(name), price)
    items = items.updated(item.id, item)
    log.info(s"added ${item.id}")
    item
  }

  def find(id: String): Option[Item] = items.get(id)
}
