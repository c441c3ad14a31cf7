local Account = require("bank.account")
local Audit = require("bank.audit")

local acct = Account.new("ada", 100)
acct:deposit(50)
acct:withdraw(30)

local audit = Audit.open("q1")
print(audit:visit(acct))
print(acct:statement())
