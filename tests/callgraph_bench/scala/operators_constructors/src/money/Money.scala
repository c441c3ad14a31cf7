package money

class Money(val cents: Long, val currency: String) {
  def this(units: Int) = this(units * 100L, "EUR")

  def +(other: Money): Money = {
    checkSame(other)
    new Money(cents + other.cents, currency)
  }
  def *(factor: Int): Money = new Money(cents * factor, currency)
  def max(other: Money): Money = if (cents >= other.cents) this else other
  private def checkSame(other: Money): Unit = require(other.currency == currency)
  override def toString: String = Money.format(this)
}

object Money {
  def format(m: Money): String = f"${m.cents / 100.0}%.2f ${m.currency}"
  def zero: Money = new Money(0L, "EUR")
}
