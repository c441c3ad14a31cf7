package bank

class Account(val owner: String, private var balance: Long) {
  val id: String = owner.toLowerCase

  def current: Long = balance

  def deposit(amount: Long): Account = {
    balance += amount
    this
  }

  def withdraw(amount: Long): Either[String, Account] =
    if (amount > current) Left("insufficient")
    else {
      balance -= amount
      Right(this)
    }

  def statement(): Statement = new Statement(this)
}

class Statement(account: Account) {
  def render(): String = s"${account.owner}: ${account.current}"
}
