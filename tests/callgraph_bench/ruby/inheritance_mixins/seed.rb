require_relative "models/user"
require_relative "models/admin"

Store::User.create(name: "ann")
user = Store::User.new(name: "bob")
user.rename("bobby")
admin = Store::Admin.new(name: "root")
admin.rename("boss")
admin.touch
Store::User.first
Store::Admin.find(3)
