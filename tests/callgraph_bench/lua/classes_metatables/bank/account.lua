-- A class the usual way: a table that is its own __index, instances by setmetatable.
local Ledger = require("bank.ledger")

local Account = {}
Account.__index = Account

function Account.new(owner, balance)
  local self = setmetatable({}, Account)
  self.owner = owner
  self.balance = balance or 0
  self.ledger = Ledger:new(owner)
  return self
end

function Account:deposit(amount)
  self:check(amount)
  self.balance = self.balance + amount
  self.ledger:record("deposit", amount)
end

function Account:withdraw(amount)
  self:check(amount)
  if amount > self.balance then
    error("insufficient funds")
  end
  self.balance = self.balance - amount
  self.ledger:record("withdraw", amount)
end

function Account:check(amount)
  assert(type(amount) == "number" and amount > 0, "bad amount")
end

function Account:statement()
  return self.owner .. "\n" .. self.ledger:render()
end

return Account
