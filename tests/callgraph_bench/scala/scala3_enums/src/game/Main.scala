package game

given defaultLogger: Logger = ConsoleLogger()

def run(commands: List[String])(using logger: Logger): Position =
  val robot = Robot(Position.Origin, logger)
  commands.foreach {
    case "step" => robot.step()
    case "turn" => robot.turn()
    case other  => logger.log(s"unknown $other")
  }
  robot.position

@main def play(): Unit =
  val last = run(List("step", "turn", "step"))
  println(manhattan(last, Position.Origin))
  Position.parse("3,4").foreach(p => println(p.distanceTo(last)))
