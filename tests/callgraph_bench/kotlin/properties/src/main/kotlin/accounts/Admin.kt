package accounts

class Admin(private val service: UserService) {
    private val users = InMemoryUsers()

    fun promote(raw: Any) {
        val user = raw as User
        users.save(user)
        service.audit.write("promoted ${user.domain()}")
    }

    fun report(): String {
        val found = service.lookup(1)
        val domain = found?.domain() ?: "none"
        return domain + service.stats()
    }
}

fun setup(): Admin {
    val service = UserService(InMemoryUsers())
    service.register(1, "Ann@Example.org")
    println(service.lastDomain())
    println(service.domainOf(1))
    return Admin(service)
}
