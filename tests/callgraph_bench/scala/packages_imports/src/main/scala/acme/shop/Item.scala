package acme.shop

case class Item(id: String, title: String, price: Int) {
  def label: String = s"$title ($price)"
  def discounted(pct: Int): Item = copy(price = price * (100 - pct) / 100)
}
