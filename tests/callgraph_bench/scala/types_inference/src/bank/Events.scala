package bank

sealed trait Event
case class Deposited(account: Account, amount: Long) extends Event
case class Withdrawn(account: Account, amount: Long) extends Event
case object Closed extends Event

object Events {
  def apply(e: Event, ledger: Ledger): String = e match {
    case Deposited(acct, amount) => acct.deposit(amount).statement().render()
    case w: Withdrawn => w.account.withdraw(w.amount).map(_.current).getOrElse(0L).toString
    case Closed => ledger.open("closed").statement().render()
  }
}
