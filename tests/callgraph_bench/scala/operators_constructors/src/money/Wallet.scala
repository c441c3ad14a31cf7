package money

import scala.collection.mutable.ListBuffer

class Wallet(owner: String) {
  private val items = ListBuffer.empty[Money]

  def +=(m: Money): this.type = {
    items += m
    this
  }
  def total: Money = items.foldLeft(Money.zero)(_ + _)
  def largest: Money = items.reduce(_ max _)
  def report(): String = s"$owner: $total (largest $largest)"
}
